// The feed index (issue 27, docs/decisions/020-feed-index.md): a sparse feed — one the engine can
// only fill a window at a time — answers a full first page in one request once its index is
// built; new matches reach it through the change stream within seconds, deletes leave it, an edit
// builds the new rule's index, and a lost message is repaired by the scheduled pass.
import { describe, expect, it } from "vitest";
import { BASE_URL, d1Cost, signedUp, untilPage as until, type Client } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const uniq = () => "f" + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);
const MAX_ROWS = 200;

const ids = (page: Json) => (page.echos as Json[]).map((e) => e._id);

/**
 * A feed read page after page by cursor, as a client scrolls it: each answer 200, within the row
 * and round-trip budget, and passed to `each` (at most `max` pages); the echos seen, in order.
 */
async function walk(client: Client, path: string, each: (page: Json, n: number) => void = () => {}, max = 100) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await client.get(`${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status).toBe(200);
    expect(d1Cost(res).rows).toBeLessThanOrEqual(MAX_ROWS);
    expect(d1Cost(res).roundTrips).toBeLessThanOrEqual(2);
    each(res.json, ++pages);
    seen.push(...ids(res.json));
    cursor = res.json.pagination.nextCursor;
  } while (cursor && pages < max);
  return { seen, pages };
}

/**
 * `count` echos by four new authors on a new tag, one in `every` without a second, excluded tag:
 * matches of "the tag, not the other" spread thin. `matches` newest first.
 */
async function thinMatches(prefix: string, count: number, every: number) {
  const hot = uniq();
  const noise = uniq();
  const authors = await Promise.all([0, 1, 2, 3].map(() => signedUp(prefix)));
  const matches: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await authors[i % 4]!.client.post("/api/echo/post", { content: `${prefix} ${i}`, tags: i % every === 0 ? [hot] : [hot, noise] });
    expect(res.status).toBe(201);
    if (i % every === 0) matches.unshift(res.json.echo._id);
  }
  return { hot, noise, authors, matches };
}

describe("the feed index", () => {
  it("a sparse feed answers a full first page in one request, every page within budget, in the engine's order", async () => {
    // 264 echos on the tag, one in 12 without the excluded tag: 22 matches spread thin
    const { hot, noise, authors, matches } = await thinMatches("fi", 264, 12);
    const reader = authors[0]!.client;
    const feed = (await reader.post("/api/scroll/create", { name: "Sparse", type: "feed", feedConfig: { includedTags: [hot], excludedTags: [noise] } })).json.scroll;
    const path = `/api/scroll/${feed._id}/echos?limit=20`;
    const first = await until(reader, path, (p) => p.echos.length === 20, 15_000);
    expect(ids(first.json)).toEqual(matches.slice(0, 20));
    expect(d1Cost(first).rows).toBeLessThanOrEqual(MAX_ROWS);
    expect(d1Cost(first).roundTrips).toBeLessThanOrEqual(2);
    const second = await reader.get(`${path}&cursor=${first.json.pagination.nextCursor}`);
    expect(ids(second.json)).toEqual(matches.slice(20));
    expect(second.json.pagination.hasMore).toBe(false);
    expect(d1Cost(second).rows).toBeLessThanOrEqual(MAX_ROWS);
    // a fork has the same rule: it reads the same (already built) index at once
    const fork = (await authors[1]!.client.post(`/api/scroll/${feed._id}/fork`)).json.scroll;
    const forked = await authors[1]!.client.get(`/api/scroll/${fork._id}/echos?limit=20`);
    expect(ids(forked.json)).toEqual(matches.slice(0, 20));
  });

  it("oldest-first and most-liked sparse feeds answer full pages from their index; a like moves an echo within 5 s", async () => {
    // 150 echos on the tag, one in 5 without the excluded tag: 30 matches, too thin for one engine window
    const thin = await thinMatches("fo", 150, 5);
    const { hot, noise, authors } = thin;
    const matches = [...thin.matches].reverse(); // oldest first
    const reader = authors[0]!.client;
    const make = async (sortBy: string) =>
      (await reader.post("/api/scroll/create", { name: sortBy, type: "feed", feedConfig: { includedTags: [hot], excludedTags: [noise], sortBy } })).json.scroll;
    const oldest = await make("oldestFirst");
    const liked = await make("mostLiked");
    for (const [feed, order] of [
      [oldest, matches],
      [liked, [...matches].reverse()], // no likes yet: newest first among equal counts
    ] as const) {
      const path = `/api/scroll/${feed._id}/echos?limit=20`;
      const first = await until(reader, path, (p) => p.feedIndex === "ready" && p.echos.length === 20, 15_000);
      expect(first.json.feedIndex).toBe("ready");
      expect(ids(first.json)).toEqual(order.slice(0, 20));
      expect(d1Cost(first).rows).toBeLessThanOrEqual(MAX_ROWS);
      expect(d1Cost(first).roundTrips).toBeLessThanOrEqual(2);
      const second = await reader.get(`${path}&cursor=${first.json.pagination.nextCursor}`);
      expect(ids(second.json)).toEqual(order.slice(20));
      expect(second.json.pagination.hasMore).toBe(false);
    }
    // two likes lift an old match to the top of the most-liked feed, through the change stream
    const lifted = matches[3]!;
    const started = Date.now();
    for (const a of authors.slice(1, 3)) expect((await a.client.post(`/api/echo/like/${lifted}`)).status).toBe(200);
    const path = `/api/scroll/${liked._id}/echos?limit=20`;
    const moved = await until(reader, path, (p) => ids(p)[0] === lifted);
    expect(ids(moved.json)[0]).toBe(lifted);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(ids(moved.json).slice(1)).toEqual([...matches].reverse().filter((id) => id !== lifted).slice(0, 19));
  });

  it("a new match shows within 5 s; a deleted one leaves; an edited rule reads its own index", async () => {
    const tag = uniq();
    const other = uniq();
    const { client } = await signedUp("fj");
    const feed = (await client.post("/api/scroll/create", { name: "Live index", type: "feed", feedConfig: { includedTags: [tag] } })).json.scroll;
    const path = `/api/scroll/${feed._id}/echos?limit=20`;
    const started = Date.now();
    const echo = (await client.post("/api/echo/post", { content: "fresh", tags: [tag] })).json.echo;
    const seen = await until(client, path, (p) => ids(p).includes(echo._id));
    expect(ids(seen.json)).toContain(echo._id);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await client.delete(`/api/echo/delete/${echo._id}`)).status).toBe(200);
    const gone = await until(client, path, (p) => !ids(p).includes(echo._id));
    expect(ids(gone.json)).not.toContain(echo._id);
    const elsewhere = (await client.post("/api/echo/post", { content: "other tag", tags: [other] })).json.echo;
    expect((await client.request("PATCH", `/api/scroll/${feed._id}`, { feedConfig: { includedTags: [other] } })).status).toBe(200);
    const edited = await until(client, path, (p) => ids(p).includes(elsewhere._id));
    expect(ids(edited.json)).toEqual([elsewhere._id]);
  });

  it("a post whose message was lost is repaired by the scheduled pass", async () => {
    const tag = uniq();
    const { client } = await signedUp("fk");
    const feed = (await client.post("/api/scroll/create", { name: "Repaired", type: "feed", feedConfig: { includedTags: [tag] } })).json.scroll;
    const path = `/api/scroll/${feed._id}/echos?limit=20`;
    const kept = (await client.post("/api/echo/post", { content: "delivered", tags: [tag] })).json.echo;
    const built = await until(client, path, (p) => p.feedIndex === "ready" && ids(p).includes(kept._id));
    expect(built.json.feedIndex).toBe("ready");
    // this post's change-stream message is lost (fault injection): the index never hears of it
    const lost = (await client.post("/api/echo/post", { content: "lost", tags: [tag] }, { "X-Echo-Fault": "stream" })).json.echo;
    await new Promise((r) => setTimeout(r, 2000));
    expect(ids((await client.get(path)).json)).toEqual([kept._id]);
    for (let pass = 0; pass < 20; pass++) {
      const res = await fetch(`${BASE_URL}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
      expect(res.status).toBe(200);
      if (ids((await client.get(path)).json).includes(lost._id)) break;
    }
    expect(ids((await client.get(path)).json)).toEqual([lost._id, kept._id]);
  });

  it("a lost post buried under 105 newer matches is found by one scheduled pass (the replay)", async () => {
    const tag = uniq();
    const authors = await Promise.all([0, 1, 2, 3].map(() => signedUp("fr")));
    const { client } = authors[0]!;
    const feed = (await client.post("/api/scroll/create", { name: "Replayed", type: "feed", feedConfig: { includedTags: [tag] } })).json.scroll;
    const path = `/api/scroll/${feed._id}/echos?limit=50`;
    await until(client, path, (p) => p.feedIndex === "ready");
    const lost = (await client.post("/api/echo/post", { content: "lost deep", tags: [tag] }, { "X-Echo-Fault": "stream" })).json.echo;
    const expected = [lost._id];
    for (let i = 0; i < 105; i++) expected.unshift((await authors[i % 4]!.client.post("/api/echo/post", { content: `over ${i}`, tags: [tag] })).json.echo._id);
    const all = async () => (await walk(client, path)).seen;
    // the stream delivered the 105 (wait for them); the lost one is not in the index
    await until(client, path, (p) => ids(p)[0] === expected[0]);
    const before = await all();
    expect(before).not.toContain(lost._id);
    // the replay leaves the stream's last 10 s to the stream
    await new Promise((r) => setTimeout(r, 10_500));
    const res = await fetch(`${BASE_URL}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    expect(res.status).toBe(200);
    expect(await all()).toEqual(expected);
  }, 600_000);

  it("a dense feed (540 matches of a plain tag) keeps them all in its index (no rule is left to the engine) and pages full, its index ready", async () => {
    const tag = uniq();
    const authors = await Promise.all([0, 1, 2, 3, 4, 5].map(() => signedUp("fd")));
    const expected: string[] = [];
    for (let i = 0; i < 540; i++) expected.unshift((await authors[i % 6]!.client.post("/api/echo/post", { content: `dense ${i}`, tags: [tag] })).json.echo._id);
    const { client } = authors[0]!;
    // created after the posts: every rule keeps up to INDEX_CAP (10,000) entries, dense or not
    // (decision 020, "No dense rules"), so its index holds all 540 and says ready
    const feed = (await client.post("/api/scroll/create", { name: "Dense", type: "feed", feedConfig: { includedTags: [tag] } })).json.scroll;
    const path = `/api/scroll/${feed._id}/echos?limit=20`;
    await until(client, path, (p) => p.feedIndex === "ready", 20_000);
    const { seen, pages } = await walk(client, path, (page, n) => {
      expect(page.feedIndex).toBe("ready");
      // every page full (540 = 27 × 20; a scroll's largest page is 21, LIST_MAX_LIMIT)
      expect(page.echos.length, `page ${n}`).toBe(20);
    });
    expect(pages).toBe(27);
    expect(seen).toEqual(expected);
  }, 600_000);

  it("hide what I liked: a sparse feed's index pages skip the reader's likes within budget, every unliked match once, in order", async () => {
    const { hot, noise, authors, matches } = await thinMatches("fh", 240, 4);
    const { client: reader } = await signedUp("fhr");
    // the reader liked the newest 40 of the 60 matches: a run longer than one page may read
    for (const id of matches.slice(0, 40)) expect((await reader.post(`/api/echo/like/${id}`)).status).toBe(200);
    const feed = (await reader.post("/api/scroll/create", { name: "Unliked", type: "feed", feedConfig: { includedTags: [hot], excludedTags: [noise], excludeLikedEchos: true } })).json.scroll;
    const path = `/api/scroll/${feed._id}/echos?limit=20`;
    await until(reader, path, (p) => p.feedIndex === "ready", 15_000);
    const { seen, pages: requests } = await walk(reader, path, (page) => expect(page.feedIndex).toBe("ready"), 10);
    expect(seen).toEqual(matches.slice(40));
    expect(requests).toBeLessThanOrEqual(3);
    // a reader who liked none of them gets a full first screen from the same index
    const other = authors[1]!.client;
    const fork = (await other.post(`/api/scroll/${feed._id}/fork`)).json.scroll;
    const first = await until(other, `/api/scroll/${fork._id}/echos?limit=20`, (p) => p.feedIndex === "ready");
    expect(ids(first.json)).toEqual(matches.slice(0, 20));
  }, 600_000);
});
