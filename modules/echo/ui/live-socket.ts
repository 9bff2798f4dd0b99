// The live client (decision 016): one WebSocket per open feed page on /api/live, reconnecting
// with exponential backoff and jitter; where sockets cannot work (no WebSocket, or it keeps
// failing) a cheap poll of the feed's first page instead. Echos posted while no socket was open
// are caught up from that same first page when a socket reopens or the poll takes over.
// Loaded after hydration (live-pill.tsx).
import type { Echo, EchoPage } from "../schema";
import type { EchoEdit } from "./echo-store";

/** A feed's entry: an echo, or in Following a repost of one, which is its own entry (decision 027). */
export const entryKey = (e: Echo) => e.repost?._id ?? e._id;

/** Failures in a row (without an open socket in between) before the poll takes over. */
const MAX_FAILURES = 5;
const BACKOFF_BASE_MS = 1000;
const BACKOFF_CAP_MS = 30_000;
export const POLL_MS = 30_000;
const CATCH_UP_TIMEOUT_MS = 10_000;
/** Keep-alive for proxies that close quiet sockets; the object answers it without waking. */
const PING_MS = 50_000;

/** Wait before reconnect attempt `n` (1, 2, …): doubling up to the cap, then half to all of it. */
export function backoffMs(n: number, random = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (n - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/**
 * The list whose first page the poll reads: the same feed the socket follows. None for an echo's
 * page or an edits-only socket (`echo=`, `edits=`): they bring no new feed entries to catch up.
 */
export function pollPath(query: string): string | null {
  const q = new URLSearchParams(query);
  if (q.has("echo") || q.has("edits")) return null;
  const scroll = q.get("scroll");
  const tag = q.get("tag");
  if (scroll) return `/api/scroll/${encodeURIComponent(scroll)}/echos?limit=20`;
  if (tag) return `/api/echo/tag/${encodeURIComponent(tag)}?limit=20`;
  if (q.has("following")) return "/api/echo/following?limit=20";
  return "/api/echo/all?limit=20";
}

/**
 * The echos of a feed's first page (newest first) above the newest one the reader knows (holds
 * in the list or has been offered), oldest first, as a socket would have delivered them. A gap
 * longer than the page yields the whole page: the echos between it and the list are not fetched.
 */
export function newerThanKnown(page: readonly Echo[], known: (id: string) => boolean): Echo[] {
  const fresh: Echo[] = [];
  for (const echo of page) {
    if (known(entryKey(echo))) break;
    fresh.push(echo);
  }
  return fresh.reverse();
}

type Options = {
  query: string;
  onEcho: (echo: Echo) => void;
  /** an echo was edited (decision 025): a page patches the copies it holds */
  onEdit?: (edit: EchoEdit) => void;
  /** an echo was deleted, or an edit hid it from this reader: the page drops its copies; or an
   * account was deleted (its id: every echo of theirs goes) */
  onGone?: (id: string) => void;
  /** whether the reader knows this echo (in the list or offered by the pill): the poll and the
   * catch-up report only those above the first one known */
  has: (id: string) => boolean;
  /** how the feed is followed right now: "open" (a socket), "poll" or "connecting" */
  onState?: (state: LiveState) => void;
  pollMs?: number;
};

export type LiveState = "connecting" | "open" | "poll";

/** Follow a feed until the returned function is called. */
export function followLive({ query, onEcho, onEdit, onGone, has, onState, pollMs = POLL_MS }: Options): () => void {
  let stopped = false;
  let failures = 0;
  /** sockets asked for so far: any but the first may open after echos it missed were posted */
  let attempts = 0;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;

  /** Read the feed's first page once and report what the reader has not seen (one request). */
  const catchUp = async () => {
    const path = pollPath(query);
    if (!path) return;
    try {
      // bounded: a reopened socket's messages wait for this read
      const res = await fetch(path, { credentials: "same-origin", signal: AbortSignal.timeout(CATCH_UP_TIMEOUT_MS) });
      if (res.ok) {
        const page = (await res.json()) as EchoPage;
        if (!stopped) for (const echo of newerThanKnown(page.echos, has)) onEcho(echo);
      }
    } catch {
      // offline or timed out: the next round (or the next reconnect) tries again
    }
  };

  const poll = async () => {
    if (stopped) return;
    await catchUp();
    if (!stopped) timer = setTimeout(() => void poll(), pollMs);
  };

  /** `now`: the poll replaces a socket that was failing, so echos may have been missed meanwhile */
  const startPolling = (now: boolean) => {
    onState?.("poll");
    // nothing to poll: a reload shows what changed
    if (!pollPath(query)) return;
    if (now) void poll();
    else timer = setTimeout(() => void poll(), pollMs);
  };

  const connect = () => {
    if (stopped) return;
    const opened = { value: false };
    const late = attempts++ > 0;
    /** while a reopened socket catches up, its messages wait, so the pill keeps the feed's order */
    let held: Echo[] | null = null;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/live?${query}`;
    onState?.("connecting");
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      opened.value = true;
      onState?.("open");
      failures = 0;
      ping = setInterval(() => ws.send("ping"), PING_MS);
      if (!late) return;
      // a reconnect (or a first socket that took retries): what was posted while no socket was
      // open is only in the feed itself. The page is read after the socket opened, so an echo is
      // in the page or on the socket (or both: onEcho takes an id once)
      held = [];
      void catchUp().then(() => {
        const waiting = held ?? [];
        held = null;
        if (!stopped) for (const echo of waiting) onEcho(echo);
      });
    };
    ws.onmessage = (event) => {
      if (event.data === "pong") return;
      const message = JSON.parse(String(event.data)) as { type?: string; echo?: Echo; author?: { _id: string } };
      if (message.type === "edit" && message.echo) {
        // the patch only (the author's id is not their name); no `mutedWord` lifts an earlier one
        const { _id, content, tags, editedAt, warning, mutedWord } = message.echo;
        return onEdit?.({ _id, content, tags, editedAt, warning, mutedWord });
      }
      if ((message.type === "delete" || message.type === "hide") && message.echo) return onGone?.(message.echo._id);
      // a deleted account: every echo of theirs goes (the store takes the author's id)
      if (message.type === "delete" && message.author) return onGone?.(message.author._id);
      if (message.type !== "echo" || !message.echo) return;
      if (held) held.push(message.echo);
      else onEcho(message.echo);
    };
    ws.onclose = (event?: CloseEvent) => {
      clearInterval(ping);
      socket = null;
      // the session ended or the viewer lost access (4401/4403, decision 016): no reconnecting
      if (event?.code === 4401 || event?.code === 4403) stopped = true;
      if (stopped) return;
      failures = opened.value ? 1 : failures + 1;
      if (failures >= MAX_FAILURES) startPolling(true);
      else timer = setTimeout(connect, backoffMs(failures));
    };
  };

  if (typeof WebSocket === "undefined") startPolling(false);
  else connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearInterval(ping);
    socket?.close(1000);
  };
}
