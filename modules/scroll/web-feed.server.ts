// A public scroll's web feed (/scroll/{id}/feed.*): what its page shows first, 50 entries — a
// feed's rule through the feed engine (its row-bounded window, decision 010), a curation's items
// newest-added first. Read as nobody: private scrolls are 404 for everyone, their creator
// included (a feed URL carries no session), and a hide-liked rule hides nothing.
import { FEED_READER_ID, WEB_FEED_ENTRIES, type WebFeed } from "../echo/index.server";
import { HttpError, notFound } from "../shared/index";
import type { AppContext } from "../shared/index.server";
import { getScroll } from "./rows.server";
import { scrollEchos } from "./pages.server";

export async function scrollWebFeed(app: AppContext, id: string): Promise<WebFeed> {
  const scroll = await getScroll(app, FEED_READER_ID, id).catch((error: unknown) => {
    // a private scroll is not there for a feed reader: the same 404 as an unknown id
    throw error instanceof HttpError && error.status === 403 ? notFound("Scroll not found") : error;
  });
  if (scroll.isPrivate) throw notFound("Scroll not found");
  const page = await scrollEchos(app, FEED_READER_ID, scroll, { page: 1, limit: WEB_FEED_ENTRIES });
  const kind = scroll.type === "feed" ? "feed" : "curation";
  return {
    title: `${scroll.name} · Echo`,
    description: scroll.description || `A ${kind} by @${scroll.creator.userName}`,
    pagePath: `/scroll/${scroll._id}`,
    feedBase: `/scroll/${scroll._id}`,
    entries: page.echos,
    emptyUpdated: scroll.createdAt,
  };
}
