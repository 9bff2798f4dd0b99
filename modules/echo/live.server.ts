// Real-time delivery of new echos (docs/decisions/016-live-updates.md): after a write commits,
// the echo goes to the live objects (Durable Objects, modules/live) of the channels it belongs
// to. The channel names are the contract between this publisher and the subscribers.
import type { AppContext } from "../shared/index.server";
import type { Echo } from "./schema";

/**
 * The "all" channel (All echos and every feed scroll, whose rules the object evaluates) is
 * spread over this many objects by subscriber; a post goes to each. One object holds the local
 * measurement's load (decision 016); raising this spreads the sockets of a busy deployment.
 */
export const LIVE_ALL_SHARDS = 1;

export const liveChannel = {
  all: (shard: number) => `all:${shard}`,
  tag: (name: string) => `tag:${name}`,
  curation: (scrollId: string) => `scroll:${scrollId}`,
};

/** The channels a newly posted echo reaches: every "all" shard and one per tag. */
export function postChannels(echo: Echo): string[] {
  return [...allChannels(), ...echo.tags.map((t) => liveChannel.tag(t.name))];
}

/** Every "all" shard: All echos, every feed scroll and every Following page listen there. */
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
export function publishLive(app: AppContext, channels: string[], echo: Echo, visibleTo?: string, rootId?: string): void {
  // a reply's conversation picks the echo pages that place it (the objects keep it to themselves)
  sendLive(app, channels, { type: "echo", echo, ...(rootId ? { rootId } : {}) }, visibleTo);
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
 * An edit (decision 025) to every page that may show the echo: the "all" shards (All echos,
 * feeds, Following, and the pages with no channel that names the echo — an echo's page, search
 * results, a curation's or tag page's quotes — whose edits-only sockets sit there) and the tag
 * pages of its tags before and after.
 */
export function publishEdit(app: AppContext, edit: LiveEdit, tagsBefore: readonly string[]): void {
  const tags = new Set([...tagsBefore, ...edit.tags.map((t) => t.name)]);
  sendLive(app, [...allChannels(), ...[...tags].map(liveChannel.tag)], { type: "edit", echo: edit });
}

/**
 * A deletion to every open page: the "all" shards hold a socket for every page that may show it
 * (a tag page's and a curation's edits-only socket included), so no tag channel is needed. It
 * names the id only: each page drops its copies, a thread keeps the place ("This echo was deleted").
 */
export function publishDelete(app: AppContext, id: string): void {
  sendLive(app, allChannels(), { type: "delete", echo: { _id: id } });
}

function sendLive(app: AppContext, channels: string[], message: { type: "echo" | "edit" | "delete"; echo?: unknown; author?: unknown; rootId?: string }, visibleTo?: string): void {
  const live = app.env.LIVE;
  if (!live || channels.length === 0) return;
  const body = JSON.stringify(message);
  // `visibleTo`: only that viewer's sockets get it (an add to a private curation)
  const headers: Record<string, string> = visibleTo ? { "X-Live-Visible-To": visibleTo } : {};
  const sends = channels.map((channel) =>
    live.get(live.idFromName(channel)).fetch("https://live/publish", { method: "POST", body, headers: { "X-Live-Channel": channel, ...headers } }),
  );
  app.ctx.waitUntil(Promise.allSettled(sends).then((results) => {
    for (const r of results) if (r.status === "rejected") console.warn("live publish failed", r.reason);
  }));
}
