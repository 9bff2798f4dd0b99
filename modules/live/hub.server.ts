// The live object (decision 016): one Durable Object per channel (`all:<shard>`, where every
// page's socket sits since issue 31) holding that channel's WebSockets through the Hibernation API, so an idle feed
// page costs no running object. A post reaches it as one `POST /publish`; it sends the echo to
// every socket whose filter matches. The same class, named `user:<id>`, is that user's registry:
// it knows which channels hold sockets the user opened or that watch the user's scrolls, and
// passes an access change (`POST /control`, modules/shared/live-control.server.ts) to them, which
// close the sockets that lost their access ("Sockets follow access" in decision 016).
import { DurableObject } from "cloudflare:workers";
import { allChannels } from "../echo/index.server";
import type { FeedRule } from "../scroll/index";
import { LIVE_CLOSE, type LiveControl } from "../shared/index.server";
import { closeCode, closeSocket, FILTER_HEADER, HOLDER_HEADER, refusal, RULE_HEADER, tagOf, VISIBLE_TO_HEADER, type Attachment, type Holder } from "./access.server";
import type { LiveFilter } from "./filter";
import { publish } from "./publish.server";

export { FILTER_HEADER, HOLDER_HEADER, RULE_HEADER, VISIBLE_TO_HEADER, type Holder } from "./access.server";

/** How long a channel remembers an access change, to refuse a handshake that crossed it. */
const RECENT_CONTROL_MS = 60_000;
/** A registry past this many channels asks them which still hold its user's sockets. */
const REGISTRY_PRUNE_AT = 100;

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
      const host = { sockets: () => this.ctx.getWebSockets(), env: this.env, ruleOf: (id: string) => this.ruleOf(id) };
      await publish(host, await request.text(), request.headers.get(VISIBLE_TO_HEADER));
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
    const stub = (channel: string) => this.env.LIVE!.get(this.env.LIVE!.idFromName(channel));
    // a deleted account: every open page drops its echos and replies now (a thread keeps their
    // places), as one deletion's does — one message naming the author, on every "all" shard,
    // where every page has a socket; the purge that deletes them one by one comes later
    const body = control.op === "sessions" && control.deleted ? JSON.stringify({ type: "delete", author: { _id: control.userId } }) : null;
    const authorGone = body
      ? Promise.allSettled(allChannels().map((channel) => stub(channel).fetch("https://live/publish", { method: "POST", body })))
      : null;
    const results = await Promise.allSettled(
      channels.map(async (channel) => {
        const res = await stub(channel).fetch("https://live/control", { method: "POST", body: JSON.stringify(control) });
        return { channel, remaining: ((await res.json()) as { remaining: number }).remaining };
      }),
    );
    const gone = results.flatMap((r) => (r.status === "fulfilled" && r.value.remaining === 0 ? [`ch:${r.value.channel}`] : []));
    if (gone.length > 0) await this.ctx.storage.delete(gone);
    for (const r of [...results, ...((await authorGone) ?? [])]) if (r.status === "rejected") console.warn("live control: a channel failed", r.reason);
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
