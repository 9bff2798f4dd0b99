// WebSocket helpers for the live tests (decision 016): Node's own WebSocket (undici), which takes
// the session cookie as a header, and raw handshakes over node:http to read a refusal's status.
import http from "node:http";
import { afterEach, expect } from "vitest";
import { BASE_URL, type Client } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type LiveSocket = {
  /** the next message (parsed) arriving within `ms`, or null when none does */
  next(ms?: number): Promise<Json | null>;
  /**
   * Whether the server closed the socket within `ms`: its close frame arrived (CLOSING or CLOSED).
   * Locally the close frame reaches the client but the runtime's proxy keeps the TCP connection,
   * so undici stays in CLOSING and fires no close event; the frame is what the test can see.
   */
  closed(ms?: number): Promise<boolean>;
  close(): void;
};

/** Open /api/live?<query> as the client; resolves once the socket is open. */
export async function openLive(client: Client, query: string): Promise<LiveSocket> {
  const init = { headers: { Cookie: client.cookie } } as unknown as string[];
  const ws = new WebSocket(`${BASE_URL.replace(/^http/, "ws")}/api/live?${query}`, init);
  const queue: Json[] = [];
  const waiters: ((m: Json) => void)[] = [];
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as Json;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve());
    ws.addEventListener("error", () => reject(new Error(`live socket ${query} failed to open`)));
  });
  return {
    next(ms = 2000) {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve) => {
        const waiter = (m: Json) => (clearTimeout(timer), resolve(m));
        const timer = setTimeout(() => (waiters.splice(waiters.indexOf(waiter), 1), resolve(null)), ms);
        waiters.push(waiter);
      });
    },
    async closed(ms = 2000) {
      const deadline = Date.now() + ms;
      while (ws.readyState < WebSocket.CLOSING && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      return ws.readyState >= WebSocket.CLOSING;
    },
    close: () => ws.close(),
  };
}

/** A handshake's answer: its status and (for a refusal) its JSON body. */
export function handshake(path: string, headers: Record<string, string>): Promise<{ status: number; json: Json | null; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get(BASE_URL + path, {
      headers: { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", ...headers },
    });
    req.on("upgrade", (res, socket) => (socket.destroy(), resolve({ status: res.statusCode ?? 0, json: null, headers: res.headers })));
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as Json) : null, headers: res.headers }));
    });
    req.on("error", reject);
  });
}

/** The messages within `ms` about one of `ids` (others may post meanwhile on "all"). */
export async function received(socket: LiveSocket, ids: string[], ms = 2000): Promise<Json[]> {
  const got: Json[] = [];
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const message = await socket.next(deadline - Date.now());
    if (!message) break;
    if (ids.includes(message.echo?._id)) got.push(message);
  }
  return got;
}

/**
 * `openLive` for a test file whose sockets close after each test: call once at the file's top
 * level (it registers the afterEach), then open sockets through what it returns.
 */
export function liveOpener(): (who: { client: Client }, query: string) => Promise<LiveSocket> {
  const open: LiveSocket[] = [];
  afterEach(() => open.splice(0).forEach((s) => s.close()));
  return async (who, query) => {
    const socket = await openLive(who.client, query);
    open.push(socket);
    return socket;
  };
}

/** A name no other test run takes. */
export const uniq = (p: string) => p + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

/** An echo (a post, reply or quote: `path`) the live tests watch arrive. */
export async function postAt(client: Client, path: string, content: string, tags: string[] = []) {
  const res = await client.post(path, { content, tags });
  expect(res.status, res.text).toBe(201);
  return res.json.echo as Json;
}
