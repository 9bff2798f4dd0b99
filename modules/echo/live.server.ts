// Real-time delivery of new echos (docs/decisions/016-live-updates.md): after a write commits,
// the echo goes to the live objects (Durable Objects, modules/live) of the channels it belongs
// to. The channel names are the contract between this publisher and the subscribers.
import type { AppContext } from "../shared/index.server";
import type { Echo } from "./schema";

/**
 * The "all" channel is spread over this many objects by subscriber; every publish goes to each.
 * Every open page has its one socket there (All echos, feeds, Following, tag pages, curations, an
 * echo's page, search), so every edit and deletion reaches every page. One object holds the local
 * measurement's load (decision 016); raising this spreads the sockets of a busy deployment.
 */
export const LIVE_ALL_SHARDS = 1;

export const liveChannel = { all: (shard: number) => `all:${shard}` };

/** Every "all" shard: every open page's socket listens on one of them. */
export const allChannels = () => Array.from({ length: LIVE_ALL_SHARDS }, (_, shard) => liveChannel.all(shard));

/**
 * What an edit changes on a card (decision 025): the text, tags, warning and "edited". Sent as
 * `{ type: "edit", echo }`; a page patches the copies of that echo it holds and ignores the rest.
 */
export type LiveEdit = Pick<Echo, "_id" | "content" | "tags" | "editedAt" | "warning"> & { author: Pick<Echo["author"], "_id"> };

/**
 * Hand the echo to each channel's object once the response is on its way (waitUntil): the
 * write's latency and D1 round trips do not change, and a live object that cannot be reached
 * costs the writer nothing (readers then catch up on their next load or poll).
 */
export function publishLive(app: AppContext, echo: Echo, rootId?: string): void {
  // a reply's conversation picks the echo pages that place it (the objects keep it to themselves)
  sendLive(app, allChannels(), { type: "echo", echo, ...(rootId ? { rootId } : {}) });
}

/**
 * An echo added to a curation (its first add): to that curation's open pages only, which the
 * objects pick by `scrollId` (and keep it to themselves); a private curation's to its creator's
 * sockets only (`visibleTo`), whatever else is open there.
 */
export function publishCurationAdd(app: AppContext, scrollId: string, echo: Echo, visibleTo?: string): void {
  sendLive(app, allChannels(), { type: "echo", echo, scrollId }, visibleTo);
}

/**
 * A repost (decision 027) to the Following pages of the reposter's followers: the echo carries
 * `repost` (who, when, the entry's id), and the "all" objects send it to Following sockets only,
 * each reader with their own like and repost state (hub.server.ts).
 */
export function publishRepost(app: AppContext, echo: Echo & { repost: NonNullable<Echo["repost"]> }): void {
  // the reposter's view of the echo: its mute note is theirs, not the readers'
  const { mutedWord: _mine, ...shared } = echo;
  sendLive(app, allChannels(), { type: "echo", echo: { ...shared, isLiked: false, isReposted: false } });
}

/**
 * An edit (decision 025) to every page that may show the echo: every page's socket sits on an
 * "all" shard (a tag page's before and after the edit, a quote's on any page, an echo's page).
 */
export function publishEdit(app: AppContext, edit: LiveEdit): void {
  sendLive(app, allChannels(), { type: "edit", echo: edit });
}

/**
 * A deletion to every open page: the "all" shards hold every page's socket. It names the id and
 * the parent a reply had: each page drops its copies, a thread keeps the place ("This echo was
 * deleted") and lowers the parent's count even where it never showed the reply (issue 31).
 */
export function publishDelete(app: AppContext, id: string, parentId: string | null): void {
  sendLive(app, allChannels(), { type: "delete", echo: { _id: id, ...(parentId ? { parentId } : {}) } });
}

type LiveMessage = { type: "echo" | "edit" | "delete"; echo?: unknown; author?: unknown; rootId?: string; scrollId?: string };

function sendLive(app: AppContext, channels: string[], message: LiveMessage, visibleTo?: string): void {
  const live = app.env.LIVE;
  if (!live || channels.length === 0) return;
  const body = JSON.stringify(message);
  // `visibleTo`: only that viewer's sockets get it (an add to a private curation)
  const headers: Record<string, string> = visibleTo ? { "X-Live-Visible-To": visibleTo } : {};
  const sends = channels.map((channel) =>
    live.get(live.idFromName(channel)).fetch("https://live/publish", { method: "POST", body, headers }),
  );
  app.ctx.waitUntil(Promise.allSettled(sends).then((results) => {
    for (const r of results) if (r.status === "rejected") console.warn("live publish failed", r.reason);
  }));
}
