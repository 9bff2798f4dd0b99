// Deletions leave every list the moment the request answers, their rows after (issue 28, decision
// 032): one echo with likes, a reply and a quote (and the counts that name it, exact at once); an
// account with many echos. The change stream's
// messages of each request are dropped (X-Echo-Fault: stream, FAULT_INJECTION=1), so the lists
// are read before any purge step ran; the scheduled pass's replay then finishes each chain.
// Rows and round trips from Server-Timing (EXPOSE_D1_STATS=1).
import { describe, expect, it } from "vitest";
import { BASE_URL, d1Cost, signedUp, uniqueName } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Person = Awaited<ReturnType<typeof signedUp>>;
const LOST = { "X-Echo-Fault": "stream" };

async function ok(res: Promise<{ status: number; json: Json; text: string }>, status = 200): Promise<Json> {
  const r = await res;
  expect(r.status, r.text.slice(0, 300)).toBe(status);
  return r.json;
}
const ids = (page: Json): string[] => ((page.echos ?? page.results ?? []) as Json[]).map((e) => (e.echo?._id ?? e._id) as string);

/** Scheduled passes (after the chains' 10 s stall) until `done` holds. */
async function untilPurged(done: () => Promise<boolean>) {
  await new Promise((r) => setTimeout(r, 10_500));
  for (let pass = 0; pass < 40 && !(await done()); pass++) {
    expect((await fetch(`${BASE_URL}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_000));
  }
  expect(await done()).toBe(true);
}

describe("deleting one echo", () => {
  it("within 2 round trips and 200 rows; it leaves every list at once (its author's too); its page and its quote say deleted; counts after the purge", async () => {
    const [author, other] = (await Promise.all([signedUp("da"), signedUp("do")])) as [Person, Person];
    const tag = uniqueName("dt").toLowerCase();
    const word = uniqueName("dw").toLowerCase();
    const echo = (await ok(author.client.post("/api/echo/post", { content: `${word} going #${tag}`, tags: [] }), 201)).echo as Json;
    const kept = (await ok(author.client.post("/api/echo/post", { content: `${word} staying #${tag}`, tags: [] }), 201)).echo as Json;
    const likers = (await Promise.all(Array.from({ length: 12 }, () => signedUp("dl")))) as Person[];
    await Promise.all(likers.map((l) => ok(l.client.post(`/api/echo/like/${echo._id}`))));
    const reply = (await ok(other.client.post(`/api/echo/${echo._id}/reply`, { content: "under it", tags: [] }), 201)).echo as Json;
    const quote = (await ok(other.client.post(`/api/echo/${echo._id}/quote`, { content: "quoting it", tags: [] }), 201)).echo as Json;
    await ok(other.client.post(`/api/profile/user/${author.user._id}/follow`));

    const deleted = await author.client.delete(`/api/echo/delete/${echo._id}`, LOST);
    expect(deleted.status).toBe(200);
    const cost = d1Cost(deleted, "the delete");
    expect(cost.roundTrips).toBeLessThanOrEqual(2);
    expect(cost.rows).toBeLessThanOrEqual(200);

    for (const who of [author, other]) {
      for (const path of ["/api/echo/all?limit=20", `/api/echo/tag/${tag}`, `/api/echo/all?user=${author.user._id}`, "/api/echo/following", `/api/search/echos?q=${word}`]) {
        const page = await ok(who.client.get(path));
        expect(ids(page), path).not.toContain(echo._id);
      }
      expect(ids(await ok(who.client.get(`/api/echo/tag/${tag}`)))).toContain(kept._id);
      expect((await who.client.get(`/api/echo/echo/${echo._id}`)).status).toBe(404);
      const thread = await ok(who.client.get(`/api/echo/${echo._id}/thread`));
      expect(thread.echo).toMatchObject({ _id: echo._id, echo: null });
      expect((thread.replies as Json[]).map((r) => r._id)).toEqual([reply._id]);
      expect((await ok(who.client.get(`/api/echo/echo/${quote._id}`))).echo.quoted).toEqual({ _id: echo._id, state: "deleted" });
    }
    // a second delete finds nothing
    expect((await author.client.delete(`/api/echo/delete/${echo._id}`)).status).toBe(404);

    // the lost messages: the scheduled pass replays the chain; the row goes, the counts follow
    await untilPurged(async () => (await ok(author.client.get("/api/profile/me"))).echosCount === 1);
    const after = await ok(other.client.get(`/api/echo/${reply._id}/thread`));
    expect((after.ancestors as Json[]).map((a) => [a._id, a.echo])).toEqual([[echo._id, null]]);
  }, 300_000);
});

describe("deleting one echo big enough for its own purge: the counts that name it", () => {
  it("its parent's replies, its tag's count and its author's echo count are exact when the delete answers, and stay so after the purge", async () => {
    const [author, other] = (await Promise.all([signedUp("dn"), signedUp("dp")])) as [Person, Person];
    const tag = uniqueName("dnt").toLowerCase();
    const parent = (await ok(other.client.post("/api/echo/post", { content: `the start #${tag}`, tags: [] }), 201)).echo as Json;
    const echo = (await ok(author.client.post(`/api/echo/${parent._id}/reply`, { content: `a reply #${tag}`, tags: [] }), 201)).echo as Json;
    // more likes than a request deletes with the echo (DELETE_INLINE): it is marked and purged in steps
    const likers = (await Promise.all(Array.from({ length: 8 }, () => signedUp("dnl")))) as Person[];
    await Promise.all(likers.map((l) => ok(l.client.post(`/api/echo/like/${echo._id}`))));
    const curation = (await ok(other.client.post("/api/scroll/create", { name: "Holds it", type: "curation" }), 201)).scroll._id as string;
    await ok(other.client.post(`/api/scroll/${curation}/add-echo`, { echoId: echo._id }));
    const counts = async () => ({
      replies: (await ok(other.client.get(`/api/echo/echo/${parent._id}`))).echo.commentsCount as number,
      tag: (await ok(other.client.get(`/api/echo/tag/${tag}`))).pagination.total as number,
      echos: (await ok(author.client.get("/api/profile/me"))).echosCount as number,
      seen: (await ok(other.client.get(`/api/profile/user/${author.user._id}`))).echosCount as number,
    });
    expect(await counts()).toEqual({ replies: 1, tag: 2, echos: 1, seen: 1 });

    // the chain's messages dropped: nothing but the request has run when the counts are read
    const deleted = await author.client.delete(`/api/echo/delete/${echo._id}`, LOST);
    expect(deleted.status).toBe(200);
    const cost = d1Cost(deleted, "the delete");
    expect(cost.roundTrips).toBeLessThanOrEqual(2);
    expect(cost.rows).toBeLessThanOrEqual(200);
    expect(await counts()).toEqual({ replies: 0, tag: 1, echos: 0, seen: 0 });
    // its purge has not run (the curation's size follows its items, which the purge deletes)
    expect((await ok(other.client.get(`/api/scroll/${curation}/echos`))).pagination.total).toBe(1);

    // the scheduled pass replays the chain to its end: each count went down once, not twice
    await untilPurged(async () => (await ok(other.client.get(`/api/scroll/${curation}/echos`))).pagination.total === 0);
    expect(await counts()).toEqual({ replies: 0, tag: 1, echos: 0, seen: 0 });
  }, 300_000);
});

describe("deleting an account with many echos", () => {
  it("its echos leave every list as the request answers, before any purge step; then its rows go", async () => {
    const [gone, follower, curator] = (await Promise.all([signedUp("dg"), signedUp("df"), signedUp("dc")])) as [Person, Person, Person];
    const tag = uniqueName("dgt").toLowerCase();
    const word = uniqueName("dgw").toLowerCase();
    await ok(follower.client.post(`/api/profile/user/${gone.user._id}/follow`));
    const posted: string[] = [];
    for (let i = 0; i < 40; i++) posted.push(((await ok(gone.client.post("/api/echo/post", { content: `${word} number ${i} #${tag}`, tags: [] }), 201)).echo as Json)._id);
    const other = (await ok(curator.client.post("/api/echo/post", { content: `${word} not theirs #${tag}`, tags: [] }), 201)).echo as Json;
    const curation = (await ok(curator.client.post("/api/scroll/create", { name: "Picks", type: "curation" }), 201)).scroll._id as string;
    await ok(curator.client.post(`/api/scroll/${curation}/add-echo`, { echoId: posted[0] }));
    const feed = (await ok(curator.client.post("/api/scroll/create", { name: "Theirs", type: "feed", feedConfig: { authors: [gone.user._id] } }), 201)).scroll._id as string;
    // their echos are there before
    expect(ids(await ok(follower.client.get("/api/echo/following?limit=20")))).toContain(posted[39]);

    const res = await gone.client.request("DELETE", "/api/profile/me", { password: "pass1234" }, LOST);
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    const cost = d1Cost(res, "the deletion");
    expect(cost.roundTrips).toBeLessThanOrEqual(2);
    expect(cost.rows).toBeLessThanOrEqual(200);

    const lists = [
      "/api/echo/all?limit=50", `/api/echo/tag/${tag}?limit=50`, `/api/echo/tag/${tag}?orderBy=likes&limit=50`, "/api/echo/following?limit=50",
      `/api/search/echos?q=${word}`, `/api/scroll/${curation}/echos`, `/api/scroll/${feed}/echos`,
    ];
    for (const viewer of [follower, curator]) {
      for (const path of lists) {
        const shown = ids(await ok(viewer.client.get(path)));
        expect(shown.filter((id) => posted.includes(id)), path).toEqual([]);
      }
    }
    expect(ids(await ok(curator.client.get(`/api/echo/tag/${tag}`)))).toEqual([other._id]);
    // web feeds and pages (HTML/XML): no text of theirs
    for (const path of [`/tag/${tag}/feed.json`, `/scroll/${curation}/feed.rss`, `/search?q=${word}`, `/tag/${tag}`]) {
      const page = await curator.client.get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).not.toContain(`${word} number`);
    }
    expect((await curator.client.get(`/api/echo/echo/${posted[3]}`)).status).toBe(404);

    // the lost message: the scheduled pass replays the chain until the account's rows are gone
    await untilPurged(async () => (await ok(curator.client.get(`/api/scroll/${curation}/echos`))).pagination?.total === 0);
  }, 300_000);
});
