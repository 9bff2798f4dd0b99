import type { ReactNode } from "react";
import type { Echo } from "../schema";
import type { EchoExtensions } from "./echo-extensions";

/** A piece of the text starting at `from`, with the search's matches (offsets in the whole text) as <mark>. */
function marked(echo: Echo, text: string, from: number): ReactNode {
  const ranges = echo.highlights?.content;
  if (!ranges?.length) return text;
  const out: ReactNode[] = [];
  let at = 0;
  for (const [s, e] of ranges) {
    const start = Math.max(s - from, at);
    const end = Math.min(e - from, text.length);
    if (end <= start) continue;
    out.push(text.slice(at, start), <mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  out.push(text.slice(at));
  return out;
}

/**
 * Search results' cards (GET /api/search/echos sends `highlights`): matched words and tags are
 * <mark> elements around React text, never HTML from the server.
 */
export const SEARCH_MARKS: NonNullable<EchoExtensions["marks"]> = {
  text: marked,
  tag: (echo, name) => (echo.highlights?.tags.includes(name) ? <mark><bdi>{name}</bdi></mark> : <bdi>{name}</bdi>),
};
