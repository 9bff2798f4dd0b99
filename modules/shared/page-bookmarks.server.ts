// Page numbers at any depth (product decisions, "Pagination"; issue 27/28): a client that pages
// by number, one page after the other, as the spec's own client does, is served from where its
// previous page ended — a keyset seek, never an OFFSET scan. The server hands the client, with
// each numbered page, the cursor that page ended on, in a cookie (`echo_pages`, React Router's
// cookie API like every cookie here); the next page number of the same list finds it there, and
// the same page number asked again (a retry, an infinite list firing twice) finds the cursor that
// page started from, so it is the same page, not a jump. A
// jump straight to a deep page has no such cursor: it is served by OFFSET while that stays within
// the row budget (MAX_JUMP_OFFSET), and answers 400 naming the cursor past it (pageRequest).
import { createCookie } from "react-router";
import * as v from "valibot";
import { readCookie } from "./cookies.server";

/** How many lists' last numbered pages a client keeps (the oldest is dropped first). */
const MAX_ENTRIES = 8;
/** The longest Set-Cookie it writes (a browser keeps 4,096 bytes a cookie). */
const MAX_COOKIE = 4000;

const options = { path: "/", httpOnly: true, sameSite: "lax", maxAge: 24 * 3600 } as const;
const plain = createCookie("echo_pages", options);
const hostOnly = createCookie("__Host-echo_pages", { ...options, secure: true });
const cookieFor = (secure: boolean) => (secure ? hostOnly : plain);

/** [list key, limit as sent, page number, the cursor that page ended on, the one it started
 * from ("" for none; absent in a cookie written before it was kept)] */
type Entry = [string, string, number, string, string?];

const EntrySchema = v.tuple([
  v.pipe(v.string(), v.maxLength(16)),
  v.pipe(v.string(), v.maxLength(8)),
  v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  v.pipe(v.string(), v.maxLength(200)),
  v.optional(v.pipe(v.string(), v.maxLength(200))),
]);
const EntriesSchema = v.pipe(v.array(EntrySchema), v.maxLength(MAX_ENTRIES));

/** A list's identity: its path and every query parameter but the paging ones (FNV-1a, base 36). */
function listKey(url: URL): string {
  const params = [...url.searchParams].filter(([k]) => k !== "page" && k !== "cursor" && k !== "limit").sort();
  const text = `${url.pathname}?${params.map(([k, val]) => `${k}=${val}`).join("&")}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

/** A numbered request of a list: page > 1 or 1, no cursor of the client's own. */
function numbered(url: URL): { page: number; limit: string; key: string } | null {
  if (url.searchParams.has("cursor")) return null;
  const page = Number(url.searchParams.get("page") ?? "1");
  if (!Number.isSafeInteger(page) || page < 1) return null;
  return { page, limit: url.searchParams.get("limit") ?? "", key: listKey(url) };
}

export type PageBookmarks = {
  /** the request to run: with `cursor` set when the page before this one left one (or this
   * page, asked again, started from one) */
  request: Request;
  /** after the list answered: the Set-Cookie that remembers where this page ended, or null */
  remember(result: unknown): Promise<string | null>;
};

/** For a GET of the API: continue a numbered page where the client's previous page ended. */
export async function pageBookmarks(request: Request, secure: boolean): Promise<PageBookmarks> {
  const none: PageBookmarks = { request, remember: async () => null };
  if (request.method !== "GET") return none;
  const url = new URL(request.url);
  const asked = numbered(url);
  if (!asked) return none;
  const entries = (await readCookie(request, cookieFor(secure), EntriesSchema)) ?? [];
  const mine = entries.find(([key, limit]) => key === asked.key && limit === asked.limit);
  // the page after the last one: from where that ended; the last one again: from where it started
  const from = mine?.[2] === asked.page - 1 ? mine[3] : mine?.[2] === asked.page ? (mine[4] ?? "") : "";
  let run = request;
  if (from) {
    const continued = new URL(url);
    continued.searchParams.set("cursor", from);
    run = new Request(continued, request);
  }
  return {
    request: run,
    async remember(result) {
      const next = (result as { pagination?: { nextCursor?: unknown } } | null)?.pagination?.nextCursor;
      if (typeof next !== "string" || next.length > 200) return null;
      const kept = entries.filter(([key, limit]) => !(key === asked.key && limit === asked.limit));
      const entry: Entry = [asked.key, asked.limit, asked.page, next, from];
      // within a browser's 4 KB a cookie (two cursors an entry): the oldest lists go first
      for (let list = [entry, ...kept].slice(0, MAX_ENTRIES); ; list = list.slice(0, -1)) {
        const cookie = await cookieFor(secure).serialize(list);
        if (cookie.length <= MAX_COOKIE || list.length === 1) return cookie;
      }
    },
  };
}
