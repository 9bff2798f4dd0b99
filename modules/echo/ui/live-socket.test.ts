import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Echo, EchoPage } from "../schema";
import { backoffMs, entryKey, followLive, newerThanKnown, pollPath } from "./live-socket";

describe("live client", () => {
  it("backs off exponentially up to 30 s, jittered to between half and all of the step", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, () => 1))).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(backoffMs(9, () => 1)).toBe(30_000);
    expect(backoffMs(3, () => 0)).toBe(2000);
    for (let i = 0; i < 100; i++) {
      const wait = backoffMs(4);
      expect(wait).toBeGreaterThanOrEqual(4000);
      expect(wait).toBeLessThanOrEqual(8000);
    }
  });

  it("polls the first page of the same feed the socket follows", () => {
    expect(pollPath("all=1")).toBe("/api/echo/all?limit=20");
    expect(pollPath("tag=caf%C3%A9")).toBe("/api/echo/tag/caf%C3%A9?limit=20");
    expect(pollPath("scroll=01abc")).toBe("/api/scroll/01abc/echos?limit=20");
    expect(pollPath("following=1")).toBe("/api/echo/following?limit=20");
  });
  it("has nothing to poll on an echo's page or an edits-only socket (they bring no feed entries)", () => {
    expect(pollPath("echo=01abc")).toBeNull();
    expect(pollPath("edits=search")).toBeNull();
  });
});

// ── Catching up on what was posted while no socket was open ──────────────────────────────────

const echo = (id: string) => ({ _id: id }) as Echo;
const ids = (echos: readonly Echo[]) => echos.map((e) => e._id);
const pageOf = (...list: string[]): EchoPage =>
  ({ echos: list.map(echo), pagination: { page: 1, limit: 20, hasMore: false, nextCursor: null } }) as unknown as EchoPage;

describe("newerThanKnown", () => {
  it("takes the echos above the newest one the reader knows, oldest first", () => {
    const known = new Set(["c", "e"]);
    expect(ids(newerThanKnown(pageOf("a", "b", "c", "d", "e").echos, (id) => known.has(id)))).toEqual(["b", "a"]);
  });
  it("takes nothing when the page's newest is known, the whole page when none is", () => {
    expect(newerThanKnown(pageOf("a", "b").echos, (id) => id === "a")).toEqual([]);
    expect(ids(newerThanKnown(pageOf("a", "b").echos, () => false))).toEqual(["b", "a"]);
    expect(newerThanKnown([], () => false)).toEqual([]);
  });
  it("keys a repost by its own entry id (decision 027): a repost of a known echo is new", () => {
    const repost = { ...echo("a"), repost: { _id: "r1", by: { _id: "u", userName: "u" }, createdAt: "" } } as unknown as Echo;
    expect(newerThanKnown([repost, echo("a")], (id) => id === "a").map(entryKey)).toEqual(["r1"]);
  });
});

describe("followLive's messages", () => {
  afterEach(() => vi.unstubAllGlobals());
  it("hands an edit to onEdit and never to onEcho (decision 025)", () => {
    FakeSocket.all = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("location", { protocol: "https:", host: "echo.test" });
    const echos: string[] = [];
    const edits: string[] = [];
    const stop = followLive({ query: "all=1", has: () => false, onEcho: (e) => echos.push(e._id), onEdit: (e) => edits.push(e.content) });
    FakeSocket.last.open();
    FakeSocket.last.onmessage?.({ data: JSON.stringify({ type: "edit", echo: { _id: "a", content: "new words", tags: [] } }) });
    FakeSocket.last.deliver("b");
    expect(edits).toEqual(["new words"]);
    expect(echos).toEqual(["b"]);
    stop();
  });
  it("hands a deletion and a hide to onGone; an edit's patch carries exactly its fields, mutedWord too", () => {
    FakeSocket.all = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("location", { protocol: "https:", host: "echo.test" });
    const gone: string[] = [];
    const edits: unknown[] = [];
    const stop = followLive({ query: "edits=search", has: () => false, onEcho: () => gone.push("echo?"), onEdit: (e) => edits.push(e), onGone: (id) => gone.push(id) });
    FakeSocket.last.open();
    for (const type of ["delete", "hide"]) FakeSocket.last.onmessage?.({ data: JSON.stringify({ type, echo: { _id: type } }) });
    const author = { _id: "u" };
    FakeSocket.last.onmessage?.({ data: JSON.stringify({ type: "edit", echo: { _id: "a", content: "c", tags: [], editedAt: "t", warning: null, mutedWord: "w", author } }) });
    FakeSocket.last.onmessage?.({ data: JSON.stringify({ type: "edit", echo: { _id: "a", content: "d", tags: [], editedAt: "u", author } }) });
    expect(gone).toEqual(["delete", "hide"]);
    // no author (its id is not its name), and a missing mutedWord is there to lift an earlier one
    expect(edits).toEqual([
      { _id: "a", content: "c", tags: [], editedAt: "t", warning: null, mutedWord: "w" },
      { _id: "a", content: "d", tags: [], editedAt: "u", warning: undefined, mutedWord: undefined },
    ]);
    expect(Object.keys(edits[1] as object)).toContain("mutedWord");
    stop();
  });
});

/** A stand-in for the browser's WebSocket: the test opens, closes and speaks for the server. */
class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send() {}
  close() {
    this.onclose?.();
  }
  open() {
    this.onopen?.();
  }
  deliver(id: string) {
    this.onmessage?.({ data: JSON.stringify({ type: "echo", echo: echo(id) }) });
  }
  static get last(): FakeSocket {
    return FakeSocket.all[FakeSocket.all.length - 1]!;
  }
}

describe("followLive catches up after a gap", () => {
  /** what the feed's first page answers (newest first), and the requests made for it */
  let feed: string[];
  let requests: string[];
  /** a request's answer waits for this, when set */
  let gate: Promise<void> | null;
  let offered: string[];
  let known: Set<string>;

  const follow = (query = "tag=cats") =>
    followLive({
      query,
      has: (id) => known.has(id),
      onEcho: (e) => {
        // what the pill does: an id once, newest on top
        if (known.has(e._id)) return;
        known.add(e._id);
        offered.unshift(e._id);
      },
    });

  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
    feed = [];
    requests = [];
    gate = null;
    offered = [];
    known = new Set();
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("location", { protocol: "https:", host: "echo.test" });
    vi.stubGlobal("fetch", async (url: string) => {
      requests.push(url);
      const answer = pageOf(...feed);
      if (gate) await gate;
      return new Response(JSON.stringify(answer), { status: 200 });
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("reads nothing on the first open; on a reopen reads the first page once and offers what was missed", async () => {
    known = new Set(["e1"]);
    feed = ["e1"];
    const stop = follow();
    FakeSocket.last.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toEqual([]);
    expect(FakeSocket.last.url).toBe("wss://echo.test/api/live?tag=cats");

    // offered by the socket, then the socket drops; two echos are posted while it is down
    FakeSocket.last.deliver("e2");
    FakeSocket.last.close();
    feed = ["e4", "e3", "e2", "e1"];
    await vi.advanceTimersByTimeAsync(1000); // the first backoff is at most 1 s
    expect(FakeSocket.all).toHaveLength(2);
    expect(requests).toEqual([]);
    FakeSocket.last.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toEqual(["/api/echo/tag/cats?limit=20"]);
    // newest on top, and e2 (already offered) not twice
    expect(offered).toEqual(["e4", "e3", "e2"]);
    stop();
  });

  it("holds the reopened socket's messages until the catch-up is in, so the order stays the feed's", async () => {
    known = new Set(["e1"]);
    feed = ["e1"];
    const stop = follow();
    FakeSocket.last.open();
    FakeSocket.last.close();
    await vi.advanceTimersByTimeAsync(1000);
    feed = ["e3", "e2", "e1"];
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    FakeSocket.last.open();
    // posted after the reopen: on the socket before the page's answer, and (e3) in the page too
    FakeSocket.last.deliver("e3");
    FakeSocket.last.deliver("e5");
    await vi.advanceTimersByTimeAsync(0);
    expect(offered).toEqual([]);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(offered).toEqual(["e5", "e3", "e2"]);
    // the socket speaks directly again
    FakeSocket.last.deliver("e6");
    expect(offered[0]).toBe("e6");
    expect(requests).toHaveLength(1);
    stop();
  });

  it("a first socket that opens only after failed attempts catches up too", async () => {
    known = new Set(["e1"]);
    feed = ["e1"];
    const stop = follow();
    FakeSocket.last.close(); // the very first attempt fails
    feed = ["e2", "e1"];
    await vi.advanceTimersByTimeAsync(1000);
    FakeSocket.last.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toHaveLength(1);
    expect(offered).toEqual(["e2"]);
    stop();
  });

  it("a failed catch-up still lets the held messages through", async () => {
    const stop = follow();
    FakeSocket.last.open();
    FakeSocket.last.close();
    await vi.advanceTimersByTimeAsync(1000);
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("offline");
    });
    FakeSocket.last.open();
    FakeSocket.last.deliver("e7");
    await vi.advanceTimersByTimeAsync(0);
    expect(offered).toEqual(["e7"]);
    stop();
  });

  it("when the poll takes over from a failing socket, it catches up at once, then every 30 s", async () => {
    known = new Set(["e1"]);
    feed = ["e2", "e1"];
    const stop = follow("all=1");
    FakeSocket.last.open();
    // the connection drops and then cannot be made again: 5 failures in a row (the 4th
    // attempt waits at most 8 s)
    for (let i = 0; i < 4; i++) {
      FakeSocket.last.close();
      await vi.advanceTimersByTimeAsync(8_000);
    }
    expect(FakeSocket.all).toHaveLength(5);
    expect(requests).toEqual([]);
    FakeSocket.last.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toEqual(["/api/echo/all?limit=20"]);
    expect(offered).toEqual(["e2"]);
    feed = ["e3", "e2", "e1"];
    await vi.advanceTimersByTimeAsync(30_000);
    expect(offered).toEqual(["e3", "e2"]);
    stop();
  });

  it("without WebSocket the poll waits its interval before the first read (the page is fresh)", async () => {
    vi.stubGlobal("WebSocket", undefined);
    const stop = follow();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(requests).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(requests).toHaveLength(1);
    stop();
  });

  it("stopping ends the catch-up's reports", async () => {
    const stop = follow();
    FakeSocket.last.open();
    FakeSocket.last.close();
    await vi.advanceTimersByTimeAsync(1000);
    feed = ["e9"];
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    FakeSocket.last.open();
    stop();
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(offered).toEqual([]);
  });

  it("a page that is no feed reads its own path on a reopen and makes its own of the answer; a deletion waits with the rest", async () => {
    const read: unknown[] = [];
    const gone: string[] = [];
    const stop = followLive({
      query: "echo=01abc",
      has: () => false,
      onEcho: (e) => offered.push(e._id),
      onGone: (id, parentId) => gone.push(`${id}<${parentId}`),
      catchUp: { path: "/api/echo/01abc/thread", apply: (body) => read.push(body) },
    });
    FakeSocket.last.open();
    FakeSocket.last.close();
    await vi.advanceTimersByTimeAsync(1000);
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    FakeSocket.last.open();
    FakeSocket.last.onmessage?.({ data: JSON.stringify({ type: "delete", echo: { _id: "r2", parentId: "r1" } }) });
    await vi.advanceTimersByTimeAsync(0);
    // the page's read comes first: the deletion after the read is taken on top of it
    expect(gone).toEqual([]);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toEqual(["/api/echo/01abc/thread"]);
    expect(read).toHaveLength(1);
    expect(gone).toEqual(["r2<r1"]);
    stop();
  });

  it("a feed's catch-up also patches the edits and quote deletions in the page it read", async () => {
    const edits: string[] = [];
    const gone: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      requests.push(url);
      const echos = [{ _id: "e2", content: "new words", tags: [], editedAt: "t2" }, { _id: "e1", content: "quote", tags: [], quoted: { _id: "q", state: "deleted" } }];
      return new Response(JSON.stringify({ echos, pagination: {} }), { status: 200 });
    });
    known = new Set(["e2", "e1"]);
    const stop = followLive({ query: "tag=cats", has: (id) => known.has(id), onEcho: (e) => offered.push(e._id), onEdit: (e) => edits.push(`${e._id}:${e.content}`), onGone: (id) => gone.push(id) });
    FakeSocket.last.open();
    FakeSocket.last.close();
    await vi.advanceTimersByTimeAsync(1000);
    FakeSocket.last.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(edits).toEqual(["e2:new words"]);
    expect(gone).toEqual(["q"]);
    expect(offered).toEqual([]);
    stop();
  });
});
