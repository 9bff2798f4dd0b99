// The live object (decision 016): one Durable Object per channel (`all:<shard>`, `tag:<name>`,
// `scroll:<id>`) holding that channel's WebSockets through the Hibernation API, so an idle feed
// page costs no running object. A post reaches it as one `POST /publish`; it sends the echo to
// every socket whose filter matches. The same class, named `user:<id>`, is that user's registry:
// it knows which channels hold sockets the user opened or that watch the user's scrolls, and
// passes an access change (`POST /control`, modules/shared/live-control.server.ts) to them, which
// close the sockets that lost their access ("Sockets follow access" in decision 016).
import { DurableObject } from "cloudflare:workers";
import { repostReaders, timelineOwners } from "../echo/index.server";
import type { FeedRule } from "../scroll/index";
import { errorResponse } from "../shared/index";
import { createDb, LIVE_CLOSE, liveVerdicts, verdictKey, type LiveControl, type LivePage } from "../shared/index.server";
import { feedMatches, type LiveFilter } from "./filter";

type Echo = Parameters<typeof feedMatches>[1];

/** Headers the subscribe request carries from the upgrade route (subscribe.server.ts). */
export const FILTER_HEADER = "X-Live-Filter";
export const RULE_HEADER = "X-Live-Rule";
/** who the socket is for: {@link Holder} without the filter */
export const HOLDER_HEADER = "X-Live-Holder";
/** on a publish: only this viewer's sockets get the echo (an add to a private curation) */
export const VISIBLE_TO_HEADER = "X-Live-Visible-To";

/**
 * What a socket keeps across hibernation (serializeAttachment): its filter, its viewer and
 * session, when the session ends at the latest, and the scroll it watches with its creator.
 */
export type Holder = { viewerId: string; sessionId: string; expiresAt: number; scrollId?: string; creatorId?: string };
type Attachment = Holder & { filter: LiveFilter };

/** How long a channel remembers an access change, to refuse a handshake that crossed it. */
const RECENT_CONTROL_MS = 60_000;
/** A registry past this many channels asks them which still hold its user's sockets. */
const REGISTRY_PRUNE_AT = 100;

const tagOf = {
  viewer: (id: string) => `v:${id}`,
  scroll: (id: string) => `sc:${id}`,
  creator: (id: string) => `c:${id}`,
};

/** Whether `control` takes away the access `holder` was given (the socket must close), and how. */
function closeCode(control: LiveControl, holder: Holder): number | null {
  if (control.op === "sessions") {
    if (holder.viewerId === control.userId && (control.sessions === null || control.sessions.includes(holder.sessionId))) return LIVE_CLOSE.sessionEnded;
    if (control.deleted && holder.creatorId === control.userId) return LIVE_CLOSE.accessLost;
    return null;
  }
  if (control.op === "count" || holder.scrollId !== control.scrollId) return null;
  return control.visibleTo === holder.viewerId ? null : LIVE_CLOSE.accessLost;
}

export class LiveHub extends DurableObject<Env> {
  /** feed rules by scroll id, read back from storage after the object woke from hibernation */
  private rules = new Map<string, FeedRule>();
  /** access changes of the last minute: a handshake that crossed one is refused */
  private recent: { at: number; control: LiveControl }[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // answered by the runtime without waking the object: clients' keep-alive
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === "/publish" && request.method === "POST") {
      await this.publish(await request.text(), request.headers.get(VISIBLE_TO_HEADER), request.headers.get("X-Live-Channel") ?? "");
      return new Response(null, { status: 204 });
    }
    if (path === "/control" && request.method === "POST") return Response.json(this.control((await request.json()) as LiveControl));
    // the registry's two calls (this object is then `user:<id>`)
    if (path === "/forward" && request.method === "POST") {
      await this.forward((await request.json()) as LiveControl);
      return new Response(null, { status: 204 });
    }
    if (path === "/register" && request.method === "POST") {
      await this.register((await request.json()) as { userId: string; channel: string });
      return new Response(null, { status: 204 });
    }
    if (path === "/subscribe" && request.headers.get("Upgrade")?.toLowerCase() === "websocket") return this.subscribe(request);
    return new Response("Not found", { status: 404 });
  }

  private async subscribe(request: Request): Promise<Response> {
    const filter = JSON.parse(request.headers.get(FILTER_HEADER) ?? '{"kind":"every"}') as LiveFilter;
    const holder = JSON.parse(request.headers.get(HOLDER_HEADER) ?? "null") as Holder | null;
    if (!holder) return new Response("No holder", { status: 400 });
    // an access change that reached this object while the handshake was on its way
    for (const { control } of this.recentControls()) {
      const code = closeCode(control, holder);
      if (code !== null) return refusal(code);
    }
    if (filter.kind === "feed") {
      // the newest subscriber's copy of the rule wins: an edited feed takes effect for all its
      // open pages when one of them (re)connects
      const rule = JSON.parse(request.headers.get(RULE_HEADER) ?? "null") as FeedRule;
      this.rules.set(filter.scrollId, rule);
      await this.ctx.storage.put(`rule:${filter.scrollId}`, rule);
    }
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    const tags = [tagOf.viewer(holder.viewerId)];
    if (holder.scrollId) tags.push(tagOf.scroll(holder.scrollId));
    if (holder.creatorId) tags.push(tagOf.creator(holder.creatorId));
    this.ctx.acceptWebSocket(server, tags);
    server.serializeAttachment({ ...holder, filter } satisfies Attachment);
    // the socket ends with its session at the latest
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > holder.expiresAt) await this.ctx.storage.setAlarm(holder.expiresAt);
    return new Response(null, { status: 101, webSocket: client });
  }

  private recentControls() {
    const since = Date.now() - RECENT_CONTROL_MS;
    this.recent = this.recent.filter((r) => r.at > since);
    return this.recent;
  }

  /**
   * An access change on a channel: close the sockets whose access it takes away; the answer
   * counts the user's sockets still open here (for the registry, which forgets empty channels).
   */
  private control(control: LiveControl): { remaining: number } {
    if (control.op !== "count") this.recent.push({ at: Date.now(), control });
    if (control.op === "scroll" && control.visibleTo === null) {
      this.rules.delete(control.scrollId);
      void this.ctx.storage.delete(`rule:${control.scrollId}`);
    }
    const userId = control.op === "scroll" ? control.creatorId : control.userId;
    const candidates = control.op === "scroll"
      ? this.ctx.getWebSockets(tagOf.scroll(control.scrollId))
      : control.op === "sessions" ? [...this.ctx.getWebSockets(tagOf.viewer(userId)), ...this.ctx.getWebSockets(tagOf.creator(userId))] : [];
    for (const ws of candidates) {
      const holder = ws.deserializeAttachment() as Attachment | null;
      const code = holder ? closeCode(control, holder) : null;
      if (code !== null) closeSocket(ws, code);
    }
    const open = (ws: WebSocket) => ws.readyState === WebSocket.OPEN;
    const remaining = this.ctx.getWebSockets(tagOf.viewer(userId)).filter(open).length + this.ctx.getWebSockets(tagOf.creator(userId)).filter(open).length;
    return { remaining };
  }

  /**
   * The registry's side of an access change: the control to each channel it knows, in parallel;
   * the channels that no longer hold the user's sockets are forgotten.
   */
  private async forward(control: LiveControl): Promise<void> {
    const channels = [...(await this.ctx.storage.list<number>({ prefix: "ch:" })).keys()].map((k) => k.slice(3));
    const results = await Promise.allSettled(
      channels.map(async (channel) => {
        const stub = this.env.LIVE!.get(this.env.LIVE!.idFromName(channel));
        const res = await stub.fetch("https://live/control", { method: "POST", body: JSON.stringify(control) });
        return { channel, remaining: ((await res.json()) as { remaining: number }).remaining };
      }),
    );
    const gone = results.flatMap((r) => (r.status === "fulfilled" && r.value.remaining === 0 ? [`ch:${r.value.channel}`] : []));
    if (gone.length > 0) await this.ctx.storage.delete(gone);
    for (const r of results) if (r.status === "rejected") console.warn("live control: a channel failed", r.reason);
  }

  /** The registry's side of a handshake: remember the channel that will hold the socket. */
  private async register({ userId, channel }: { userId: string; channel: string }): Promise<void> {
    await this.ctx.storage.put(`ch:${channel}`, Date.now());
    const known = await this.ctx.storage.list({ prefix: "ch:", limit: REGISTRY_PRUNE_AT + 1 });
    // a control that takes nothing away: it only counts, and the registry forgets empty channels
    if (known.size > REGISTRY_PRUNE_AT) await this.forward({ op: "count", userId });
  }

  /** Close the sockets whose session ended; wake again at the next end. */
  async alarm(): Promise<void> {
    const now = Date.now();
    let next = Infinity;
    for (const ws of this.ctx.getWebSockets()) {
      const holder = ws.deserializeAttachment() as Attachment | null;
      if (!holder?.expiresAt) continue;
      if (holder.expiresAt <= now) closeSocket(ws, LIVE_CLOSE.sessionEnded);
      else next = Math.min(next, holder.expiresAt);
    }
    if (next !== Infinity) await this.ctx.storage.setAlarm(next);
  }

  private async ruleOf(scrollId: string): Promise<FeedRule | undefined> {
    let rule = this.rules.get(scrollId);
    if (!rule) {
      rule = await this.ctx.storage.get<FeedRule>(`rule:${scrollId}`);
      if (rule) this.rules.set(scrollId, rule);
    }
    return rule;
  }

  /**
   * `message` is the wire text `{ "type": "echo", "echo": … }`, sent as it came; a repost's echo
   * carries `repost` and goes to Following pages only; `{ "type": "edit", … }` goes to every page
   * here (a page patches the copies it holds) whose reader would see the echo there, and
   * `{ "type": "delete", … }` to every page.
   */
  private async publish(message: string, visibleTo: string | null, channel: string): Promise<void> {
    const { type, echo } = JSON.parse(message) as { type: string; echo: Echo & { repost?: { _id: string; by: { _id: string } } } };
    if (type === "delete") {
      // an id only, nothing to hide from anyone: every page drops its copies
      for (const [ws] of this.liveSockets()) send(ws, message);
      return;
    }
    if (type === "edit") return this.publishEdit(echo, channel);
    if (echo.repost) return this.publishRepost({ id: echo.repost._id, reposterId: echo.repost.by._id, echoId: echo._id, authorId: echo.author._id }, message);
    const now = Date.now();
    // a feed's rule is evaluated once per publish, however many of its pages are open
    const verdicts = new Map<string, boolean>();
    /** Following pages wait for one D1 read after every other socket was served */
    const following: [WebSocket, string][] = [];
    /** every other page: sent once what their viewers hide is known, with the page it shows */
    const others: [WebSocket, string, LivePage][] = [];
    for (const ws of this.ctx.getWebSockets()) {
      const holder = ws.deserializeAttachment() as Attachment | null;
      if (!holder?.filter) continue;
      // a session past its end gets nothing (the alarm closes it)
      if (holder.expiresAt <= now || (visibleTo !== null && holder.viewerId !== visibleTo)) continue;
      const { filter } = holder;
      // an edits-only page shows no new echos; an echo's page only the replies to that echo
      if (filter.kind === "edits" || (filter.kind === "thread" && echo.parentId !== filter.echoId)) continue;
      if (filter.kind === "following") {
        following.push([ws, filter.viewerId]);
        continue;
      }
      if (filter.kind === "feed") {
        let verdict = verdicts.get(filter.scrollId);
        if (verdict === undefined) {
          const rule = await this.ruleOf(filter.scrollId);
          verdict = rule ? feedMatches(rule, echo, now) : false;
          verdicts.set(filter.scrollId, verdict);
        }
        if (!verdict) continue;
      }
      others.push([ws, holder.viewerId, livePage(channel, filter)]);
    }
    if (others.length > 0) await this.publishVisible(echo, others);
    if (following.length > 0) await this.publishFollowing(echo, following);
  }

  /**
   * Sends the echo to the sockets whose viewer sees it on that page (issue 32): not to one who
   * hides its author (a block either way, a mute) or whom moderation keeps it from (a limited
   * account's echo leaves public pages), nor one whose hide word it matches in the page's
   * context; a warn word sends it with `mutedWord`, as the lists do. One D1 batch for all of them;
   * when it fails nobody gets the echo (they see it on their next load), rather than one who must not.
   * An edit follows the same verdicts, but a page may already hold the echo: where a hide word of
   * the reader's now matches it the page gets `{ "type": "hide" }` (it drops its copies, as its list
   * would on a reload); a shown one without `mutedWord` lifts an earlier warning (the client patches it).
   */
  private async publishVisible(echo: Echo, sockets: [WebSocket, string, LivePage][], type: "echo" | "edit" = "echo"): Promise<void> {
    let seen: Awaited<ReturnType<typeof liveVerdicts>>;
    try {
      seen = await liveVerdicts(createDb(this.env.DB), echo._id, sockets.map(([, viewerId, page]) => ({ viewerId, page })));
    } catch (error) {
      console.warn("live: visibility check failed", error);
      return;
    }
    const messages = new Map<string | null, string>();
    const wire = (warn: string | null) => {
      let m = messages.get(warn);
      if (m === undefined) messages.set(warn, (m = JSON.stringify({ type, echo: warn === null ? echo : { ...echo, mutedWord: warn } })));
      return m;
    };
    const hide = JSON.stringify({ type: "hide", echo: { _id: echo._id } });
    for (const [ws, viewerId, page] of sockets) {
      const verdict = seen.get(verdictKey(viewerId, page));
      if (verdict?.shown) send(ws, wire(verdict.warn));
      // hidden by the reader's words: the page may hold the version before the edit (a blocked
      // or muted author's echo it never held: nothing to say)
      else if (verdict?.author && type === "edit") send(ws, hide);
    }
  }

  /**
   * Following pages: the echo goes to the readers whose timeline holds it or will (its author's
   * followers: the change stream writes the rows past the post's batch's first slice). One query for all of this object's Following readers, each a
   * primary-key probe; the author's follower count does not enter (decision 016). Then the
   * same test as every other page (Home's words; a limited account stays in its followers'
   * Following, a personal list).
   */
  private async publishFollowing(echo: Echo, sockets: [WebSocket, string][]): Promise<void> {
    let owners: Set<string>;
    try {
      owners = await timelineOwners(createDb(this.env.DB), { id: echo._id, authorId: echo.author._id }, [...new Set(sockets.map(([, viewerId]) => viewerId))]);
    } catch (error) {
      // D1 unreachable: these readers see the echo on their next load, as when a publish fails
      console.warn("live: following check failed", error);
      return;
    }
    const kept = sockets.filter(([, viewerId]) => owners.has(viewerId));
    if (kept.length > 0) await this.publishVisible(echo, kept.map(([ws, viewerId]) => [ws, viewerId, FOLLOWING_PAGE]));
  }

  /** The open sockets whose session has not ended, with their viewer and filter. */
  private liveSockets(): [WebSocket, Attachment][] {
    const now = Date.now();
    return this.ctx.getWebSockets().flatMap((ws) => {
      const holder = ws.deserializeAttachment() as Attachment | null;
      return holder?.filter && holder.expiresAt > now ? [[ws, holder] as [WebSocket, Attachment]] : [];
    });
  }

  /**
   * An edit: every page here may hold a copy of the echo; each reader who would see it on that
   * page gets the patch (the same test as a new echo's: hidden authors, moderation, the page's
   * hide words; a warn word sends it with `mutedWord`), and one who no longer would a `hide`.
   */
  private async publishEdit(echo: Echo, channel: string): Promise<void> {
    const sockets = this.liveSockets().map(([ws, holder]): [WebSocket, string, LivePage] => [ws, holder.viewerId, livePage(channel, holder.filter)]);
    if (sockets.length > 0) await this.publishVisible(echo, sockets, "edit");
  }

  /**
   * A repost (decision 027): to the Following pages whose timeline holds it or will, whose reader
   * sees both the echo's author and the reposter; each with the reader's own like and repost
   * state of the echo, and Home's muted words as the Following list applies them to the echo (a
   * hide word: not sent; a warn word: sent with `mutedWord`). Two D1 reads for all of them
   * (repostReaders, then the verdicts); when either fails nobody gets it.
   */
  private async publishRepost(repost: { id: string; reposterId: string; echoId: string; authorId: string }, message: string): Promise<void> {
    const sockets = this.liveSockets().flatMap(([ws, holder]): [WebSocket, string][] => (holder.filter.kind === "following" ? [[ws, holder.viewerId]] : []));
    if (sockets.length === 0) return;
    let readers: Awaited<ReturnType<typeof repostReaders>>;
    let seen: Awaited<ReturnType<typeof liveVerdicts>>;
    try {
      const db = createDb(this.env.DB);
      readers = await repostReaders(db, repost, [...new Set(sockets.map(([, viewerId]) => viewerId))]);
      seen = readers.size === 0 ? new Map() : await liveVerdicts(db, repost.echoId, [...readers.keys()].map((viewerId) => ({ viewerId, page: FOLLOWING_PAGE })));
    } catch (error) {
      console.warn("live: repost check failed", error);
      return;
    }
    const parsed = JSON.parse(message) as { type: string; echo: Record<string, unknown> };
    for (const [ws, viewerId] of sockets) {
      const state = readers.get(viewerId);
      const verdict = seen.get(verdictKey(viewerId, FOLLOWING_PAGE));
      if (!state || !verdict?.shown) continue;
      send(ws, JSON.stringify({ type: parsed.type, echo: { ...parsed.echo, ...state, ...(verdict.warn === null ? {} : { mutedWord: verdict.warn }) } }));
    }
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // the protocol is server → client only; anything but the auto-answered ping is refused
    if (message !== "ping") ws.close(1003, "This socket only sends");
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    // complete the closing handshake (1005/1006 are not codes one may send)
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closed");
    } catch {
      // already closed
    }
  }
}

/** Home's Following: Home's words; a limited account stays in its followers' Following, a personal list. */
const FOLLOWING_PAGE: LivePage = { context: "home", scope: "personal" };

/**
 * The page a socket shows, for its muted words and moderation: All (Home), a tag page (Tags), a
 * curation or a feed (Feeds), all of them public lists; Following (Home, personal); an echo's
 * page (no words, personal: as the thread reads); an edits-only page by the context it names.
 */
function livePage(channel: string, filter: LiveFilter): LivePage {
  if (filter.kind === "following") return FOLLOWING_PAGE;
  if (filter.kind === "thread") return { context: null, scope: "personal" };
  if (filter.kind === "edits") return { context: filter.page, scope: "public" };
  if (filter.kind === "feed" || channel.startsWith("scroll:")) return { context: "feeds", scope: "public" };
  if (channel.startsWith("tag:")) return { context: "tags", scope: "public" };
  return { context: "home", scope: "public" };
}

/** The answer to a handshake whose access ended on its way: the API's error shape. */
function refusal(code: number): Response {
  const [status, message] = code === LIVE_CLOSE.sessionEnded ? [401, "Not signed in"] : [403, "This scroll is private"];
  return errorResponse(status, message);
}

function closeSocket(ws: WebSocket, code: number): void {
  try {
    ws.close(code, code === LIVE_CLOSE.sessionEnded ? "session ended" : "access ended");
  } catch {
    // already closed
  }
}

function send(ws: WebSocket, message: string): void {
  try {
    ws.send(message);
  } catch {
    // a socket closing meanwhile: its close handler tidies up
  }
}
