// The live client (decision 016): one WebSocket per open page on /api/live, reconnecting with
// exponential backoff and jitter; where sockets cannot work (no WebSocket, or it keeps failing) a
// cheap poll of the page's first page instead. What happened while no socket was open (new echos
// or replies, edits, deletions) is caught up from that same first page when a socket reopens or
// the poll takes over.
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
 * page or an edits-only socket (`echo=`, `edits=`): their page names what it reads (`catchUp`).
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

/**
 * What a read of a page's first page says changed in the echos it holds (the same read that
 * catches up new echos): the edits (each with its `editedAt`, so a newer one delivered meanwhile
 * stays) and the quoted echos that were deleted. An echo gone from the list itself it cannot
 * tell from one that dropped out of it: that shows on the next load.
 */
export function changesIn(echos: readonly Echo[], onEdit?: (edit: EchoEdit) => void, onGone?: (id: string) => void): void {
  for (const { _id, content, tags, editedAt, warning, mutedWord, quoted } of echos) {
    if (editedAt) onEdit?.({ _id, content, tags, editedAt, warning, mutedWord });
    if (quoted?.state === "deleted") onGone?.(quoted._id);
  }
}

type Options = {
  query: string;
  onEcho: (echo: Echo) => void;
  /** an echo was edited (decision 025): a page patches the copies it holds */
  onEdit?: (edit: EchoEdit) => void;
  /** an echo was deleted (with the parent a reply had), or an edit hid it from this reader: the
   * page drops its copies; or an account was deleted (its id: every echo of theirs goes) */
  onGone?: (id: string, parentId?: string) => void;
  /** a page that is no feed (an echo's, search): what a reopened socket (or the poll) reads to
   * catch up instead of a feed's first page, and what the page makes of the answer (by default
   * a list's: its edits and deletions, and to onEcho what is newer than the echos known) */
  catchUp?: { path: string; apply?: (body: unknown) => void };
  /** whether the reader knows this echo (in the list or offered by the pill): the poll and the
   * catch-up report only those above the first one known */
  has: (id: string) => boolean;
  /** how the feed is followed right now: "open" (a socket), "poll" or "connecting" */
  onState?: (state: LiveState) => void;
  pollMs?: number;
};

export type LiveState = "connecting" | "open" | "poll";

/** Follow a feed until the returned function is called. */
export function followLive({ query, onEcho, onEdit, onGone, has, onState, catchUp: own, pollMs = POLL_MS }: Options): () => void {
  let stopped = false;
  let failures = 0;
  /** sockets asked for so far: any but the first may open after echos it missed were posted */
  let attempts = 0;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;

  /** read when needed: a page's path may change while its socket stays (a search's query) */
  const pathNow = () => own?.path ?? pollPath(query);
  /**
   * Read the page's first page once and report what the reader has not seen (one request): a
   * feed's new echos and the edits and deletions in it, or what the page itself makes of its read.
   */
  const catchUp = async () => {
    const path = pathNow();
    if (!path) return;
    try {
      // bounded: a reopened socket's messages wait for this read
      const res = await fetch(path, { credentials: "same-origin", signal: AbortSignal.timeout(CATCH_UP_TIMEOUT_MS) });
      if (res.ok) {
        const body: unknown = await res.json();
        if (stopped) return;
        if (own?.apply) return own.apply(body);
        const { echos } = body as EchoPage;
        changesIn(echos, onEdit, onGone);
        for (const echo of newerThanKnown(echos, has)) onEcho(echo);
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
    if (!pathNow()) return;
    if (now) void poll();
    else timer = setTimeout(() => void poll(), pollMs);
  };

  const connect = () => {
    if (stopped) return;
    const opened = { value: false };
    const late = attempts++ > 0;
    /** while a reopened socket catches up, its messages wait: the pill keeps the feed's order, and
     * a page that rereads its counts (a thread) takes the changes after its read on top of it */
    let held: string[] | null = null;
    const take = (data: string) => {
      const message = JSON.parse(data) as { type?: string; echo?: Echo & { parentId?: string | null }; author?: { _id: string } };
      if (message.type === "edit" && message.echo) {
        // the patch only (the author's id is not their name); no `mutedWord` lifts an earlier one
        const { _id, content, tags, editedAt, warning, mutedWord } = message.echo;
        return onEdit?.({ _id, content, tags, editedAt, warning, mutedWord });
      }
      if ((message.type === "delete" || message.type === "hide") && message.echo) return onGone?.(message.echo._id, message.echo.parentId ?? undefined);
      // a deleted account: every echo of theirs goes (the store takes the author's id)
      if (message.type === "delete" && message.author) return onGone?.(message.author._id);
      if (message.type === "echo" && message.echo) onEcho(message.echo);
    };
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
      // a reconnect (or a first socket that took retries): what happened while no socket was
      // open is only in the page's read. It is made after the socket opened, so a change is in
      // the read or on the socket (or both: an echo is taken once by id, an edit by its time)
      held = [];
      void catchUp().then(() => {
        const waiting = held ?? [];
        held = null;
        if (!stopped) for (const data of waiting) take(data);
      });
    };
    ws.onmessage = (event) => {
      if (event.data === "pong") return;
      if (held) held.push(String(event.data));
      else take(String(event.data));
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
