// The live object (decision 016): one Durable Object per channel (`all:<shard>`, `tag:<name>`,
// `scroll:<id>`) holding that channel's WebSockets through the Hibernation API, so an idle feed
// page costs no running object. A post reaches it as one `POST /publish`; it sends the echo to
// every socket whose filter matches.
import { DurableObject } from "cloudflare:workers";
import { timelineOwners } from "../echo/index.server";
import type { FeedRule } from "../scroll/index";
import { createDb } from "../shared/index.server";
import { feedMatches, type LiveFilter } from "./filter";

/** Headers the subscribe request carries from the upgrade route (subscribe.server.ts). */
export const FILTER_HEADER = "X-Live-Filter";
export const RULE_HEADER = "X-Live-Rule";

export class LiveHub extends DurableObject<Env> {
  /** feed rules by scroll id, read back from storage after the object woke from hibernation */
  private rules = new Map<string, FeedRule>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // answered by the runtime without waking the object: clients' keep-alive
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === "/publish" && request.method === "POST") {
      await this.publish(await request.text());
      return new Response(null, { status: 204 });
    }
    if (path === "/subscribe" && request.headers.get("Upgrade")?.toLowerCase() === "websocket") return this.subscribe(request);
    return new Response("Not found", { status: 404 });
  }

  private async subscribe(request: Request): Promise<Response> {
    const filter = JSON.parse(request.headers.get(FILTER_HEADER) ?? '{"kind":"every"}') as LiveFilter;
    if (filter.kind === "feed") {
      // the newest subscriber's copy of the rule wins: an edited feed takes effect for all its
      // open pages when one of them (re)connects
      const rule = JSON.parse(request.headers.get(RULE_HEADER) ?? "null") as FeedRule;
      this.rules.set(filter.scrollId, rule);
      await this.ctx.storage.put(`rule:${filter.scrollId}`, rule);
    }
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(filter);
    return new Response(null, { status: 101, webSocket: client });
  }

  private async ruleOf(scrollId: string): Promise<FeedRule | undefined> {
    let rule = this.rules.get(scrollId);
    if (!rule) {
      rule = await this.ctx.storage.get<FeedRule>(`rule:${scrollId}`);
      if (rule) this.rules.set(scrollId, rule);
    }
    return rule;
  }

  /** `message` is the wire text `{ "type": "echo", "echo": … }`, sent as it came. */
  private async publish(message: string): Promise<void> {
    const { echo } = JSON.parse(message) as { echo: Parameters<typeof feedMatches>[1] };
    const now = Date.now();
    // a feed's rule is evaluated once per publish, however many of its pages are open
    const verdicts = new Map<string, boolean>();
    /** Following pages wait for one D1 read after every other socket was served */
    const following: [WebSocket, string][] = [];
    for (const ws of this.ctx.getWebSockets()) {
      const filter = ws.deserializeAttachment() as LiveFilter | null;
      if (!filter) continue;
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
      send(ws, message);
    }
    if (following.length > 0) await this.publishFollowing(echo._id, following, message);
  }

  /**
   * Following pages: the echo goes to the readers whose timeline holds it (the post's batch wrote
   * those rows before publishing). One query for all of this object's Following readers, each a
   * primary-key probe; the author's follower count does not enter (decision 016).
   */
  private async publishFollowing(echoId: string, sockets: [WebSocket, string][], message: string): Promise<void> {
    let owners: Set<string>;
    try {
      owners = await timelineOwners(createDb(this.env.DB), echoId, [...new Set(sockets.map(([, viewerId]) => viewerId))]);
    } catch (error) {
      // D1 unreachable: these readers see the echo on their next load, as when a publish fails
      console.warn("live: following check failed", error);
      return;
    }
    for (const [ws, viewerId] of sockets) if (owners.has(viewerId)) send(ws, message);
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

function send(ws: WebSocket, message: string): void {
  try {
    ws.send(message);
  } catch {
    // a socket closing meanwhile: its close handler tidies up
  }
}
