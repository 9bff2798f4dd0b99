// Blocks and mutes over real HTTP (issue 32, decision 026): every list leaves out the authors the
// viewer does not see — one they block, one who blocks them, one they mute — and still answers a
// full page within the budget (≤ 2 D1 round trips, ≤ 200 rows read), for a viewer who blocks
// many accounts (SAFETY_BLOCKS, default 50). The writes: what a block undoes and refuses, bad input,
// only one's own lists.
import { beforeAll, describe, expect, it } from "vitest";
import { Client, expectErrorShape, signedUp, timed } from "./client";

// a sign-up hashes a password (scrypt): 1,000 accounts take over 10 minutes here, so the API test
// blocks 50 and modules/profile/safety-budget.test.ts measures 1,000 (accounts written directly)
const BLOCKS = Number(process.env.SAFETY_BLOCKS ?? 50);
const PER_AUTHOR = 24;
const MAX_ROWS = 200;
const uniq = (p: string) => p + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

type Person = Awaited<ReturnType<typeof signedUp>>;
let viewer: Person;
let blocked: Person; // the viewer blocks them
let muted: Person; // the viewer mutes them
let blocker: Person; // they block the viewer
let others: Person[]; // seen
let tag: string;
let word: string;
let curationId: string;
let tagFeedId: string;
let authorFeedId: string;
let hiddenAuthorsFeedId: string;
const hiddenIds = () => new Set([blocked.user._id, muted.user._id, blocker.user._id]);

async function post(who: Person, i: number, extra = "") {
  const res = await who.client.post("/api/echo/post", { content: `${word} safety echo ${i} ${extra}`.trim(), tags: [tag] });
  expect(res.status, res.text).toBe(201);
  return res.json.echo._id as string;
}

/** Many accounts at once, in small parallel groups. */
async function accounts(n: number, prefix: string): Promise<Person[]> {
  const out: Person[] = [];
  for (let i = 0; i < n; i += 20) out.push(...(await Promise.all(Array.from({ length: Math.min(20, n - i) }, () => signedUp(prefix)))));
  return out;
}

beforeAll(async () => {
  tag = uniq("sf");
  word = uniq("sw");
  const people = await accounts(6, "sf");
  [viewer, blocked, muted, blocker] = people as [Person, Person, Person, Person];
  others = people.slice(4);
  // the viewer follows all of them first: the block must end it, the mute keep it
  for (const who of [blocked, muted, blocker, ...others]) expect((await viewer.client.post(`/api/profile/user/${who.user._id}/follow`)).status).toBe(200);
  expect((await blocked.client.post(`/api/profile/user/${viewer.user._id}/follow`)).status).toBe(200);
  // interleaved, so hidden authors' echos sit among the seen ones on every page
  const ids: string[] = [];
  for (let i = 0; i < PER_AUTHOR; i++) {
    for (const who of [blocked, muted, blocker, ...others]) ids.push(await post(who, i));
  }
  const curation = await viewer.client.post("/api/scroll/create", { name: "Everyone's", type: "curation" });
  curationId = curation.json.scroll._id;
  for (let i = 0; i < ids.length; i += 15) {
    for (const res of await Promise.all(ids.slice(i, i + 15).map((id) => viewer.client.post(`/api/scroll/${curationId}/add-echo`, { echoId: id })))) {
      expect(res.status).toBe(200);
    }
  }
  const tagFeed = await viewer.client.post("/api/scroll/create", { name: "Tag feed", type: "feed", feedConfig: { includedTags: [tag] } });
  expect(tagFeed.status, tagFeed.text).toBe(201);
  tagFeedId = tagFeed.json.scroll._id;
  const authorFeed = await viewer.client.post("/api/scroll/create", {
    name: "Author feed",
    type: "feed",
    feedConfig: { authors: [blocked.user._id, muted.user._id, others[0]!.user._id], excludedTags: ["nothing"] },
  });
  expect(authorFeed.status, authorFeed.text).toBe(201);
  authorFeedId = authorFeed.json.scroll._id;
  // and one naming only authors the viewer will not see (issue 32: it walked their entries, empty
  // pages with more to come)
  const hiddenAuthorsFeed = await viewer.client.post("/api/scroll/create", {
    name: "Hidden authors' feed",
    type: "feed",
    feedConfig: { authors: [blocked.user._id, muted.user._id, blocker.user._id] },
  });
  expect(hiddenAuthorsFeed.status, hiddenAuthorsFeed.text).toBe(201);
  hiddenAuthorsFeedId = hiddenAuthorsFeed.json.scroll._id;

  expect((await viewer.client.post(`/api/profile/user/${blocked.user._id}/block`)).json).toEqual({ userId: blocked.user._id, blocked: true, muted: false, mutedUntil: null });
  expect((await viewer.client.post(`/api/profile/user/${muted.user._id}/mute`, { duration: "7d" })).json).toMatchObject({ muted: true, blocked: false });
  expect((await blocker.client.post(`/api/profile/user/${viewer.user._id}/block`)).status).toBe(200);
  // after the block and the mute: mentions of the viewer from each hidden author
  await post(blocked, 900, `@${viewer.user.userName}`);
  await post(muted, 901, `@${viewer.user.userName}`);
  await post(blocker, 902, `@${viewer.user.userName}`);
  await post(others[1]!, 903, `@${viewer.user.userName}`);

  // the viewer blocks BLOCKS - 1 accounts more: their hidden-author set holds BLOCKS + 2 authors
  const crowd = await accounts(BLOCKS - 1, "sfc");
  for (let i = 0; i < crowd.length; i += 25) {
    const calls = crowd.slice(i, i + 25).map((c) => viewer.client.post(`/api/profile/user/${c.user._id}/block`));
    for (const res of await Promise.all(calls)) expect(res.status, res.text).toBe(200);
  }
}, 600_000);

describe("every list leaves hidden authors out, pages full, within budget", () => {
  const lists = () => [
    { name: "all echos", path: "/api/echo/all?limit=20" },
    { name: "all echos by tag", path: `/api/echo/all?tag=${tag}&limit=20` },
    { name: "tag page", path: `/api/echo/tag/${tag}?limit=20` },
    { name: "tag page, most liked", path: `/api/echo/tag/${tag}?orderBy=likes&limit=20` },
    { name: "Following", path: "/api/echo/following?limit=20" },
    { name: "curation", path: `/api/scroll/${curationId}/echos?limit=20` },
    { name: "feed by tag", path: `/api/scroll/${tagFeedId}/echos?limit=20` },
    { name: "feed by authors", path: `/api/scroll/${authorFeedId}/echos?limit=10` },
    { name: "search", path: `/api/search/echos?q=${word}&limit=20` },
  ];

  it("each list's first two pages: no hidden author, full, ≤ 2 round trips and ≤ 200 rows", async () => {
    const hidden = hiddenIds();
    const failures: string[] = [];
    for (const list of lists()) {
      let path = list.path;
      for (let page = 1; page <= 2; page++) {
        const res = await timed(viewer.client, path);
        expect(res.status, `${list.name} page ${page}`).toBe(200);
        const echos = res.json!.echos as { author: { _id: string } }[];
        const limit = Number(new URL(path, "http://x").searchParams.get("limit"));
        const authors = echos.map((e) => e.author._id);
        if (authors.some((a) => hidden.has(a))) failures.push(`${list.name} p${page}: a hidden author's echo`);
        // search ranks a window of 60 hits, and hidden authors' hits leave it after ranking (decision
        // 026): its first page is full, a later page of the window may be short (with more to come)
        // a feed's page probes at most its scan of entries (decision 026, "Feeds: what a viewer does
        // not see, in the statement"): with 3 in 5 of them hidden a screen is short, with its cursor
        const mayBeShort =
          (list.name === "search" && page > 1 && res.json!.pagination.hasMore === true) ||
          (list.name.startsWith("feed") && echos.length > 0 && res.json!.pagination.nextCursor !== null);
        if (echos.length !== limit && !mayBeShort) failures.push(`${list.name} p${page}: ${echos.length} of ${limit}`);
        if (res.roundTrips > 2 || res.rows > MAX_ROWS) failures.push(`${list.name} p${page}: ${res.roundTrips} rt, ${res.rows} rows`);
        console.log(`${list.name} p${page}: ${echos.length} echos, ${res.roundTrips} rt, ${res.rows} rows`);
        const next = res.json!.pagination.nextCursor as string | null;
        if (!next) break;
        path = `${list.path}&cursor=${encodeURIComponent(next)}`;
      }
    }
    expect(failures).toEqual([]);
  });

  it("feeds naming authors the viewer hides, once their indexes are built: all of them — empty and ended; some — only the others' echos, each once", async () => {
    // the engine's page before the index is ready, the index's (or the engine's beside it) after
    for (const id of [hiddenAuthorsFeedId, authorFeedId]) {
      for (let tries = 0; ; tries++) {
        const res = await timed(viewer.client, `/api/scroll/${id}/echos?limit=10`);
        if (res.json!.feedIndex === "ready") break;
        if (tries > 60) throw new Error(`feed ${id}: index not ready (${res.json!.feedIndex})`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const gone = await timed(viewer.client, `/api/scroll/${hiddenAuthorsFeedId}/echos?limit=20`);
    expect(gone.json!.echos).toEqual([]);
    expect(gone.json!.pagination).toMatchObject({ hasMore: false, nextCursor: null });
    expect(gone.roundTrips).toBeLessThanOrEqual(2);
    expect(gone.rows).toBeLessThanOrEqual(MAX_ROWS);
    // the feed of two hidden authors and a seen one: the engine's scan of the seen one's stream alone
    // (19 entries a screen for a 3-author rule with tests, decision 026), walked by cursor: the seen
    // one's 24 echos, each once, newest first, every page within the budget
    const walked: string[] = [];
    let path = `/api/scroll/${authorFeedId}/echos?limit=20`;
    for (let page = 1; page <= 5; page++) {
      const res = await timed(viewer.client, path);
      const echos = res.json!.echos as { _id: string; author: { _id: string } }[];
      expect(echos.every((e) => e.author._id === others[0]!.user._id)).toBe(true);
      if (page === 1) expect(echos.length).toBeGreaterThanOrEqual(19);
      expect(res.roundTrips).toBeLessThanOrEqual(2);
      expect(res.rows).toBeLessThanOrEqual(MAX_ROWS);
      walked.push(...echos.map((e) => e._id));
      const next = res.json!.pagination.nextCursor as string | null;
      if (!next) break;
      path = `/api/scroll/${authorFeedId}/echos?limit=20&cursor=${encodeURIComponent(next)}`;
    }
    const own = await timed(others[0]!.client, `/api/profile/user/${others[0]!.user._id}/echos?limit=50`);
    expect(walked).toEqual((own.json!.echos as { _id: string }[]).map((e) => e._id));
    expect(walked).toHaveLength(PER_AUTHOR);
  });

  it("profiles: a hidden author's echos are gone for the viewer, and the viewer's for the one they block", async () => {
    for (const who of [blocked, muted, blocker]) {
      const res = await timed(viewer.client, `/api/profile/user/${who.user._id}/echos?limit=20`);
      expect(res.status).toBe(200);
      expect(res.json!.echos).toEqual([]);
    }
    const seen = await timed(viewer.client, `/api/profile/user/${others[0]!.user._id}/echos?limit=20`);
    expect(seen.json!.echos).toHaveLength(20);
    expect(seen.roundTrips).toBeLessThanOrEqual(2);
    expect(seen.rows).toBeLessThanOrEqual(MAX_ROWS);
    // a block hides both ways; a mute only the muted from the muter
    await post(viewer, 999);
    expect((await blocked.client.get(`/api/profile/user/${viewer.user._id}/echos`)).json.echos).toEqual([]);
    expect((await blocker.client.get(`/api/profile/user/${viewer.user._id}/echos`)).json.echos).toEqual([]);
    expect((await muted.client.get(`/api/profile/user/${viewer.user._id}/echos`)).json.echos).toHaveLength(1);
  });

  it("notifications: none from a hidden author (mentions after the block or mute), the others' stay", async () => {
    const res = await timed(viewer.client, "/api/notifications");
    const hidden = hiddenIds();
    const actors = (res.json!.notifications as { kind: string; actor: { _id: string } }[]).map((n) => n.actor._id);
    expect(actors.filter((a) => hidden.has(a))).toEqual([]);
    expect(actors).toContain(others[1]!.user._id);
    expect(res.roundTrips).toBeLessThanOrEqual(2);
    expect(res.rows).toBeLessThanOrEqual(MAX_ROWS);
  });
});

describe("the writes", () => {
  it("a block ended the follows both ways; the blocked cannot follow, like or be followed", async () => {
    const following = (await viewer.client.get(`/api/profile/user/${viewer.user._id}/following?limit=100`)).json.following as { _id: string }[];
    expect(following.map((f) => f._id)).not.toContain(blocked.user._id);
    expect(following.map((f) => f._id)).not.toContain(blocker.user._id);
    expect(following.map((f) => f._id)).toContain(muted.user._id);
    const follow = await blocked.client.post(`/api/profile/user/${viewer.user._id}/follow`);
    expect(follow.status).toBe(403);
    expectErrorShape(follow.json);
    expect((await viewer.client.post(`/api/profile/user/${blocked.user._id}/follow`)).status).toBe(403);
    const mine = (await viewer.client.get(`/api/profile/user/${viewer.user._id}/echos?limit=1`)).json.echos[0]._id;
    const like = await blocked.client.post(`/api/echo/like/${mine}`);
    expect(like.status).toBe(403);
    expect((await viewer.client.get(`/api/echo/echo/${mine}`)).json.echo.likes).toBe(0);
  });

  it("the lists: one's own, newest first, by cursor; guests get 401", async () => {
    const first = await viewer.client.get("/api/profile/me/blocks?limit=2");
    expect(first.status).toBe(200);
    expect(first.json.users).toHaveLength(2);
    expect(first.json.pagination.hasMore).toBe(true);
    const second = await viewer.client.get(`/api/profile/me/blocks?limit=2&cursor=${encodeURIComponent(first.json.pagination.nextCursor)}`);
    expect(second.json.users.map((u: { _id: string }) => u._id)).not.toContain(first.json.users[0]._id);
    const mutes = await viewer.client.get("/api/profile/me/mutes");
    expect(mutes.json.users).toMatchObject([{ _id: muted.user._id, userName: muted.user.userName }]);
    expect(Date.parse(mutes.json.users[0].until)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    // the blocker's list holds the viewer, the viewer's the blocked: each sees their own only
    expect((await blocker.client.get("/api/profile/me/blocks")).json.users.map((u: { _id: string }) => u._id)).toEqual([viewer.user._id]);
    expect((await muted.client.get("/api/profile/me/mutes")).json.users).toEqual([]);
    const guest = new Client();
    for (const path of ["/api/profile/me/blocks", "/api/profile/me/mutes"]) expect((await guest.get(path)).status).toBe(401);
    expect((await guest.post(`/api/profile/user/${blocked.user._id}/block`)).status).toBe(401);
    expect((await guest.post(`/api/profile/user/${blocked.user._id}/mute`)).status).toBe(401);
    expect((await viewer.client.get(`/api/profile/user/${blocked.user._id}/block`)).json).toEqual({ userId: blocked.user._id, blocked: true, muted: false, mutedUntil: null });
  });

  it("bad input: a clear 400 or 404 that changes nothing", async () => {
    const { client, user } = await signedUp("sfbad");
    const target = others[1]!.user._id;
    const cases: [string, () => Promise<{ status: number; json: { error?: unknown; message?: unknown } }>, number][] = [
      ["block oneself", () => client.post(`/api/profile/user/${user._id}/block`), 400],
      ["mute oneself", () => client.post(`/api/profile/user/${user._id}/mute`), 400],
      ["an unknown user", () => client.post(`/api/profile/user/${"0".repeat(26)}/block`), 404],
      ["not an id", () => client.post("/api/profile/user/nope/mute", {}), 404],
      ["a duration not offered", () => client.post(`/api/profile/user/${target}/mute`, { duration: "2y" }), 400],
      ["a duration of the wrong type", () => client.post(`/api/profile/user/${target}/mute`, { duration: 7 }), 400],
      ["a body that is not JSON", () => client.request("POST", `/api/profile/user/${target}/mute`, "{", { "Content-Type": "application/json" }), 400],
      ["a bad cursor", () => client.get("/api/profile/me/blocks?cursor=garbage"), 400],
      ["a method the list does not take", () => client.post("/api/profile/me/mutes"), 405],
    ];
    for (const [name, call, status] of cases) {
      const res = await call();
      expect(res.status, name).toBe(status);
      expectErrorShape(res.json);
    }
    expect((await client.get("/api/profile/me/blocks")).json.users).toEqual([]);
    expect((await client.get("/api/profile/me/mutes")).json.users).toEqual([]);
    // a mute with no body lasts until unmuted; unmute and unblock are idempotent
    expect((await client.request("POST", `/api/profile/user/${target}/mute`)).json).toMatchObject({ muted: true, mutedUntil: null });
    expect((await client.delete(`/api/profile/user/${target}/mute`)).json).toMatchObject({ muted: false });
    expect((await client.delete(`/api/profile/user/${target}/mute`)).json).toMatchObject({ muted: false });
    expect((await client.delete(`/api/profile/user/${target}/block`)).json).toMatchObject({ blocked: false });
  });
});
