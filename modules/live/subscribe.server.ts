// GET /api/live (decision 016): authorize the viewer for the channel they ask for, then hand the
// WebSocket upgrade to that channel's live object, which keeps the socket (hub.server.ts).
import { conversationOf, LIVE_ALL_SHARDS, liveChannel } from "../echo/index.server";
import { scrollWithRule } from "../scroll/index.server";
import { HttpError } from "../shared/index";
import { confirmSession, liveSessionOf } from "../auth/index.server";
import { accountLimit, batch, liveUserChannel, parseInput, queryOf, returning, tables, type AppContext } from "../shared/index.server";
import type { FeedRule } from "../scroll/index";
import type { LiveFilter } from "./filter";
import { FILTER_HEADER, HOLDER_HEADER, RULE_HEADER, type Holder } from "./hub.server";
import { LIVE_UPGRADE_MESSAGE, LiveQuerySchema, type LiveQuery } from "./schema";

type Target = { channel: string; filter: LiveFilter; rule?: FeedRule; scroll?: { scrollId: string; creatorId: string } };

const anyAllShard = () => liveChannel.all(Math.floor(Math.random() * LIVE_ALL_SHARDS));

/** The object and filter for a query; a scroll the viewer may not see answers as the scroll API does. */
async function targetOf(app: AppContext, viewerId: string, query: LiveQuery): Promise<Target> {
  // a tag page and a curation sit on an "all" shard too, where every edit and deletion goes: one
  // socket brings the page's new echos and the changes to every echo it shows, quotes included
  if (query.tag !== undefined) return { channel: anyAllShard(), filter: { kind: "tag", tag: query.tag } };
  // the viewer's own timeline: on the "all" channel, its object checks each new echo against it
  if (query.following !== undefined) return { channel: anyAllShard(), filter: { kind: "following", viewerId } };
  if (query.echo !== undefined) {
    // the whole conversation: a reply to any echo the page shows arrives in its place
    const rootId = await conversationOf(app, query.echo);
    return { channel: anyAllShard(), filter: { kind: "thread", echoId: query.echo, ...(rootId ? { rootId } : {}) } };
  }
  if (query.edits !== undefined) return { channel: anyAllShard(), filter: { kind: "edits", page: query.edits } };
  if (query.scroll === undefined) return { channel: anyAllShard(), filter: { kind: "every" } };
  const { scroll, rule } = await scrollWithRule(app, viewerId, query.scroll);
  const watched = { scrollId: scroll._id, creatorId: scroll.creator._id };
  if (scroll.type === "curation") return { channel: anyAllShard(), filter: { kind: "curation", scrollId: scroll._id }, scroll: watched };
  // a feed listens on the "all" channel; its object evaluates the rule on each new echo
  return { channel: anyAllShard(), filter: { kind: "feed", scrollId: scroll._id }, rule, scroll: watched };
}

export async function openLiveSocket(app: AppContext, viewerId: string, request: Request): Promise<Response> {
  const query = parseInput(LiveQuerySchema, queryOf(request));
  // the account's handshake limit: its counter is queued with the scroll read and the session
  // check, which share the request's first D1 batch (no round trip of its own)
  const limit = accountLimit("liveHandshake", viewerId);
  const counted = batch(app.db, [returning(limit.upsert, { count: tables.rateLimits.count })]);
  counted.catch(() => undefined);
  // authorization before the upgrade check: a plain GET learns what a handshake would (403/404)
  const target = await targetOf(app, viewerId, query);
  const tooMany = limit.exceeded((await counted)[0][0]?.count);
  if (tooMany) throw tooMany;
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") throw new HttpError(426, LIVE_UPGRADE_MESSAGE, { Upgrade: "websocket" });
  const live = app.env.LIVE;
  if (!live) throw new HttpError(503, "Live updates are not available here");
  // the session must hold before a socket opens (a read served without D1 checks it only after
  // the route ran, and a 101 cannot be taken back)
  const check = await confirmSession(app);
  if (check) throw check.failure;
  const session = await liveSessionOf(app, request);
  const holder: Holder = { viewerId, sessionId: session.sessionId, expiresAt: session.expiresAt, ...target.scroll };
  // the registries first (the viewer's, and the watched scroll's creator's): an access change
  // from now on reaches this channel, which refuses the handshake if the change arrives first
  const registries = [...new Set([viewerId, target.scroll?.creatorId].filter((id) => id !== undefined))];
  await Promise.all(
    registries.map(async (userId) => {
      const res = await live.get(live.idFromName(liveUserChannel(userId))).fetch("https://live/register", {
        method: "POST",
        body: JSON.stringify({ userId, channel: target.channel }),
      });
      if (!res.ok) throw new HttpError(503, "Live updates are not available here");
    }),
  );
  const headers: Record<string, string> = { Upgrade: "websocket", [FILTER_HEADER]: JSON.stringify(target.filter), [HOLDER_HEADER]: JSON.stringify(holder) };
  if (target.rule) headers[RULE_HEADER] = JSON.stringify(target.rule);
  return live.get(live.idFromName(target.channel)).fetch("https://live/subscribe", { headers });
}
