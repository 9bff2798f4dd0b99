// The live client (decision 016): one WebSocket per open feed page on /api/live, reconnecting
// with exponential backoff and jitter; where sockets cannot work (no WebSocket, or it keeps
// failing) a cheap poll of the feed's first page instead. Loaded after hydration (live-pill.tsx).
import type { Echo, EchoPage } from "../schema";

/** Failures in a row (without an open socket in between) before the poll takes over. */
const MAX_FAILURES = 5;
const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 30_000;
export const POLL_MS = 30_000;
/** Keep-alive for proxies that close quiet sockets; the object answers it without waking. */
const PING_MS = 50_000;

/** Wait before reconnect attempt `n` (1, 2, …): doubling up to the cap, then half to all of it. */
export function backoffMs(n: number, random = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (n - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** The list whose first page the poll reads: the same feed the socket follows. */
export function pollPath(query: string): string {
  const q = new URLSearchParams(query);
  const scroll = q.get("scroll");
  const tag = q.get("tag");
  if (scroll) return `/api/scroll/${encodeURIComponent(scroll)}/echos?limit=20`;
  if (tag) return `/api/echo/tag/${encodeURIComponent(tag)}?limit=20`;
  if (q.has("following")) return "/api/echo/following?limit=20";
  return "/api/echo/all?limit=20";
}

type Options = {
  query: string;
  onEcho: (echo: Echo) => void;
  /** whether the page already has this echo: the poll reports only those above the first it has */
  has: (id: string) => boolean;
  /** how the feed is followed right now: "open" (a socket), "poll" or "connecting" */
  onState?: (state: LiveState) => void;
  pollMs?: number;
};

export type LiveState = "connecting" | "open" | "poll";

/** Follow a feed until the returned function is called. */
export function followLive({ query, onEcho, has, onState, pollMs = POLL_MS }: Options): () => void {
  let stopped = false;
  let failures = 0;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;

  const startPolling = () => {
    onState?.("poll");
    timer = setTimeout(() => void poll(), pollMs);
  };

  const poll = async () => {
    if (stopped) return;
    try {
      const res = await fetch(pollPath(query), { credentials: "same-origin" });
      if (res.ok) {
        const page = (await res.json()) as EchoPage;
        const fresh: Echo[] = [];
        for (const echo of page.echos) {
          if (has(echo._id)) break;
          fresh.push(echo);
        }
        // oldest first, as a socket would have delivered them
        for (const echo of fresh.reverse()) onEcho(echo);
      }
    } catch {
      // offline: the next round tries again
    }
    if (!stopped) timer = setTimeout(() => void poll(), pollMs);
  };

  const connect = () => {
    if (stopped) return;
    const opened = { value: false };
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/live?${query}`;
    onState?.("connecting");
    socket = new WebSocket(url);
    socket.onopen = () => {
      opened.value = true;
      onState?.("open");
      failures = 0;
      ping = setInterval(() => socket?.send("ping"), PING_MS);
    };
    socket.onmessage = (event) => {
      if (event.data === "pong") return;
      const message = JSON.parse(String(event.data)) as { type?: string; echo?: Echo };
      if (message.type === "echo" && message.echo) onEcho(message.echo);
    };
    socket.onclose = () => {
      clearInterval(ping);
      socket = null;
      if (stopped) return;
      failures = opened.value ? 1 : failures + 1;
      if (failures >= MAX_FAILURES) startPolling();
      else timer = setTimeout(connect, backoffMs(failures));
    };
  };

  if (typeof WebSocket === "undefined") startPolling();
  else connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearInterval(ping);
    socket?.close(1000);
  };
}
