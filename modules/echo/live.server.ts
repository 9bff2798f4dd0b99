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
  const all = Array.from({ length: LIVE_ALL_SHARDS }, (_, shard) => liveChannel.all(shard));
  return [...all, ...echo.tags.map((t) => liveChannel.tag(t.name))];
}

/**
 * Hand the echo to each channel's object once the response is on its way (waitUntil): the
 * write's latency and D1 round trips do not change, and a live object that cannot be reached
 * costs the writer nothing (readers then catch up on their next load or poll).
 */
export function publishLive(app: AppContext, channels: string[], echo: Echo, visibleTo?: string): void {
  const live = app.env.LIVE;
  if (!live || channels.length === 0) return;
  const body = JSON.stringify({ type: "echo", echo });
  // `visibleTo`: only that viewer's sockets get it (an add to a private curation)
  const headers: Record<string, string> = visibleTo ? { "X-Live-Visible-To": visibleTo } : {};
  const sends = channels.map((channel) =>
    live.get(live.idFromName(channel)).fetch("https://live/publish", { method: "POST", body, headers: { "X-Live-Channel": channel, ...headers } }),
  );
  app.ctx.waitUntil(Promise.allSettled(sends).then((results) => {
    for (const r of results) if (r.status === "rejected") console.warn("live publish failed", r.reason);
  }));
}
