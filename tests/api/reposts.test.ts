// Reposts and quotes over real HTTP (issue 31, docs/decisions/027-reposts-and-quotes.md): a repost
// shows in the reposter's followers' Following as "reposted by", once, undone on DELETE; a quote
// is an echo embedding another; counts, notifications and the lists of who reposted and quoted;
// each within ≤ 2 D1 round trips and ≤ 200 rows read (Server-Timing).
import { describe, expect, it } from "vitest";
import { d1Cost, expectErrorShape, freshWindow, signedUp, type Client } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function post(client: Client, content: string, extra: Json = {}) {
  const res = await client.post("/api/echo/post", { content, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.json.echo as Json;
}

async function follow(client: Client, userId: string) {
  expect((await client.post(`/api/profile/user/${userId}/follow`)).status).toBe(200);
}

const within = (res: { headers: Headers }, what: string) => {
  const cost = d1Cost(res, what);
  expect(cost.roundTrips, what).toBeLessThanOrEqual(2);
  expect(cost.rows, what).toBeLessThanOrEqual(200);
  return cost;
};

const one = async (client: Client, id: string) => (await client.get(`/api/echo/echo/${id}`)).json.echo as Json;
const following = async (client: Client) => (await client.get("/api/echo/following")).json.echos as Json[];

describe("reposts", () => {
  it("reach the reposter's followers' Following once, with who reposted; count, notification, list; undo takes it away", async () => {
    const ann = await signedUp("rpa");
    const ben = await signedUp("rpb");
    const cat = await signedUp("rpc");
    await follow(cat.client, ben.user._id);
    const echo = await post(ann.client, "worth a repost");
    expect(echo).toMatchObject({ reposts: 0, quotes: 0, isReposted: false });

    const res = await ben.client.post(`/api/echo/${echo._id}/repost`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ reposts: 1, isReposted: true });
    const cost = within(res, "a repost");
    console.log(`repost: ${cost.roundTrips} rt, ${cost.rows} rows`);
    // idempotent: once per person
    expect((await ben.client.post(`/api/echo/${echo._id}/repost`)).json).toEqual({ reposts: 1, isReposted: true });
    expect(await one(ben.client, echo._id)).toMatchObject({ reposts: 1, isReposted: true });
    expect(await one(cat.client, echo._id)).toMatchObject({ reposts: 1, isReposted: false });

    // cat follows ben, not ann: the echo is in cat's Following as ben's repost
    const feed = await following(cat.client);
    expect(feed.map((e) => [e._id, e.repost?.by.userName])).toEqual([[echo._id, ben.user.userName]]);
    expect(feed[0]!.repost._id).not.toBe(echo._id);
    // the reposter's own Following shows it too (one's own activity, as one's echos)
    expect((await following(ben.client)).map((e) => e.repost?.by._id)).toEqual([ben.user._id]);

    // the author is told, grouped per echo like likes
    const notes = (await ann.client.get("/api/notifications")).json.notifications as Json[];
    expect(notes.map((n) => [n.kind, n.echo?._id, n.actor.userName])).toContainEqual(["repost", echo._id, ben.user.userName]);
    await cat.client.post(`/api/echo/${echo._id}/repost`);
    const grouped = ((await ann.client.get("/api/notifications")).json.notifications as Json[]).filter((n) => n.kind === "repost");
    expect(grouped.map((n) => n.actorCount)).toEqual([2]);

    // who reposted, newest first, paged by cursor
    const who = await ann.client.get(`/api/echo/${echo._id}/reposts`);
    expect(who.status).toBe(200);
    within(who, "who reposted");
    expect(who.json.users.map((u: Json) => u.userName)).toEqual([cat.user.userName, ben.user.userName]);
    expect(who.json.pagination).toEqual({ limit: 20, hasMore: false, nextCursor: null });

    // undo: out of the timelines, the count and the notification follow
    const undo = await ben.client.delete(`/api/echo/${echo._id}/repost`);
    expect(undo.json).toEqual({ reposts: 1, isReposted: false });
    within(undo, "an undo");
    // (cat's own repost stays in cat's Following; ben's is gone)
    expect((await following(cat.client)).map((e) => e.repost?.by.userName)).toEqual([cat.user.userName]);
    expect((await ben.client.delete(`/api/echo/${echo._id}/repost`)).json).toEqual({ reposts: 1, isReposted: false });
    const after = ((await ann.client.get("/api/notifications")).json.notifications as Json[]).filter((n) => n.kind === "repost");
    expect(after.map((n) => [n.actorCount, n.actor.userName])).toEqual([[1, cat.user.userName]]);
  });

  it("refuses across a block (403, nothing written) and a missing echo (404); a muted reposter leaves Following", async () => {
    const ann = await signedUp("rba");
    const ben = await signedUp("rbb");
    const cat = await signedUp("rbc");
    const echo = await post(ann.client, "not for ben");
    expect((await ann.client.post(`/api/profile/user/${ben.user._id}/block`)).status).toBe(200);
    const refused = await ben.client.post(`/api/echo/${echo._id}/repost`);
    expect(refused.status).toBe(403);
    expectErrorShape(refused.json);
    expect(refused.json.message).toBe("You cannot repost this echo");
    expect(await one(ann.client, echo._id)).toMatchObject({ reposts: 0 });
    const missing = await ben.client.post("/api/echo/01aaaaaaaaaaaaaaaaaaaaaaaa/repost");
    expect(missing.status).toBe(404);
    expect((await ben.client.get("/api/echo/01aaaaaaaaaaaaaaaaaaaaaaaa/reposts")).status).toBe(404);

    await follow(ann.client, cat.user._id);
    const catEcho = await post(cat.client, "cat's");
    await cat.client.post(`/api/echo/${echo._id}/repost`);
    // cat's repost, cat's echo, ann's own
    expect((await following(ann.client)).map((e) => e.repost?.by.userName ?? null)).toEqual([cat.user.userName, null, null]);
    expect((await ann.client.post(`/api/profile/user/${cat.user._id}/mute`, {})).status).toBe(200);
    expect((await following(ann.client)).map((e) => e._id)).not.toContain(catEcho._id);
    expect((await following(ann.client)).some((e) => e.repost)).toBe(false);
  });
});

describe("who reposted, paged; a Following page of reposts", () => {
  it("25 reposters: 20 then 5 by cursor, newest first; the reader's Following of 25 reposts: each within budget", async () => {
    const ann = await signedUp("rwa");
    const reader = await signedUp("rwr");
    const echo = await post(ann.client, "popular");
    const people = [];
    for (let i = 0; i < 25; i++) people.push(await signedUp(`rw${i}`));
    // followed first: a follow brings the followee's newest echos, not their reposts (decision 027)
    for (const p of people) {
      await follow(reader.client, p.user._id);
      expect((await p.client.post(`/api/echo/${echo._id}/repost`)).status).toBe(200);
    }
    const first = await ann.client.get(`/api/echo/${echo._id}/reposts`);
    const firstCost = within(first, "who reposted, page 1");
    expect(first.json.users.map((u: Json) => u._id)).toEqual(people.slice(5).reverse().map((p) => p.user._id));
    const second = await ann.client.get(`/api/echo/${echo._id}/reposts?cursor=${first.json.pagination.nextCursor}`);
    const secondCost = within(second, "who reposted, page 2");
    expect(second.json.users.map((u: Json) => u._id)).toEqual(people.slice(0, 5).reverse().map((p) => p.user._id));
    expect(second.json.pagination.hasMore).toBe(false);
    const feed = await reader.client.get("/api/echo/following?limit=20");
    const feedCost = within(feed, "Following of reposts");
    expect(feed.json.echos.map((e: Json) => e.repost.by._id)).toEqual(people.slice(5).reverse().map((p) => p.user._id));
    console.log(`who reposted: ${firstCost.roundTrips} rt, ${firstCost.rows} rows; page 2 ${secondCost.rows} rows; Following of 20 reposts: ${feedCost.roundTrips} rt, ${feedCost.rows} rows`);
  }, 600_000);
});

describe("the repost limit", () => {
  it("100 repost and undo calls per 10 minutes per account; the 101st is a 429 that writes nothing", async () => {
    await freshWindow(10 * 60_000); // a fixed 10-minute window: the 101 calls must not straddle its edge
    const ann = await signedUp("rla");
    const ben = await signedUp("rlb");
    const echos = await Promise.all(Array.from({ length: 10 }, (_, i) => post(ann.client, `limit ${i}`)));
    for (let round = 0; round < 10; round++) {
      const calls = echos.map((e) => (round % 2 === 0 ? ben.client.post(`/api/echo/${e._id}/repost`) : ben.client.delete(`/api/echo/${e._id}/repost`)));
      expect((await Promise.all(calls)).map((r) => r.status)).toEqual(echos.map(() => 200));
    }
    const refused = await ben.client.post(`/api/echo/${echos[0]!._id}/repost`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expectErrorShape(refused.json);
    expect(await one(ann.client, echos[0]!._id)).toMatchObject({ reposts: 0 });
  });
});

describe("quotes", () => {
  it("a quote is an echo embedding another: tags, count, notification, list; 'deleted' once it goes", async () => {
    const ann = await signedUp("qta");
    const ben = await signedUp("qtb");
    const echo = await post(ann.client, "quote me", { warning: "a warning" });
    const res = await ben.client.post(`/api/echo/${echo._id}/quote`, { content: "so this #quoted", tags: ["extra"] });
    expect(res.status, res.text).toBe(201);
    const cost = within(res, "a quote");
    console.log(`quote: ${cost.roundTrips} rt, ${cost.rows} rows`);
    const quote = res.json.echo as Json;
    expect(quote).toMatchObject({ content: "so this #quoted", author: { _id: ben.user._id }, parentId: null });
    expect(quote.tags.map((t: Json) => t.name)).toEqual(["extra", "quoted"]);
    expect(quote.quoted).toEqual({ _id: echo._id, state: "ok", author: { _id: ann.user._id, userName: ann.user.userName }, content: "quote me", warning: "a warning", createdAt: echo.createdAt });
    expect(await one(ann.client, echo._id)).toMatchObject({ quotes: 1 });
    // on its tag page as any echo
    const tagged = (await ben.client.get("/api/echo/tag/quoted")).json.echos as Json[];
    expect(tagged.map((e) => e._id)).toContain(quote._id);

    const notes = (await ann.client.get("/api/notifications")).json.notifications as Json[];
    expect(notes.map((n) => [n.kind, n.echo?._id])).toContainEqual(["quote", quote._id]);

    const list = await ann.client.get(`/api/echo/${echo._id}/quotes`);
    expect(list.status).toBe(200);
    const listCost = within(list, "the quotes");
    console.log(`quotes list: ${listCost.roundTrips} rt, ${listCost.rows} rows`);
    expect(list.json.echos.map((e: Json) => e._id)).toEqual([quote._id]);
    expect(list.json.pagination.total).toBe(1);

    // bad input: the post's 400, nothing written
    const bad = await ben.client.post(`/api/echo/${echo._id}/quote`, { content: "" });
    expect(bad.status).toBe(400);
    expect(await one(ann.client, echo._id)).toMatchObject({ quotes: 1 });

    expect((await ann.client.delete(`/api/echo/delete/${echo._id}`)).status).toBe(200);
    expect((await one(ben.client, quote._id)).quoted).toEqual({ _id: echo._id, state: "deleted" });
    expect((await ben.client.post(`/api/echo/${echo._id}/quote`, { content: "too late" })).status).toBe(404);
  });
});
