import { describe, expect, it } from "vitest";
import { Client, expectErrorShape, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function post(client: Client, content: string, tags: string[] = []) {
  const res = await client.post("/api/echo/post", { content, tags });
  expect(res.status).toBe(201);
  return res.json.echo as Json;
}

async function create(client: Client, body: Json) {
  const res = await client.post("/api/scroll/create", body);
  if (res.status !== 201) throw new Error(`create failed ${res.status} ${res.text}`);
  return res.json.scroll as Json;
}

const contents = (res: { json: Json }) => res.json.echos.map((e: Json) => e.content);
const uniq = () => "t" + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

describe("POST /api/scroll/create", () => {
  it("creates a feed with its rule and returns it with authors as {_id, userName}", async () => {
    const { client, user } = await signedUp("sc");
    const scroll = await create(client, {
      name: "  My feed  ",
      description: "desc",
      type: "feed",
      isPrivate: false,
      feedConfig: {
        tagMatchType: "all",
        includedTags: ["#Tech", "ai"],
        excludedTags: ["spam"],
        authors: [user._id],
        sortBy: "mostLiked",
        sortTimeRange: "1month",
        excludeLikedEchos: true,
        dateRange: { startDate: "2026-01-01", endDate: "2026-12-31" },
      },
    });
    expect(scroll).toMatchObject({
      name: "My feed",
      description: "desc",
      type: "feed",
      isPrivate: false,
      creator: { _id: user._id, userName: user.userName },
      savedBy: [],
      followersCount: 0,
      feedConfig: {
        tagMatchType: "all",
        includedTags: [{ _id: "tech", name: "tech" }, { _id: "ai", name: "ai" }],
        excludedTags: [{ _id: "spam", name: "spam" }],
        authors: [{ _id: user._id, userName: user.userName }],
        sortBy: "mostLiked",
        sortTimeRange: "1month",
        excludeLikedEchos: true,
        dateRange: { startDate: "2026-01-01T00:00:00.000Z", endDate: "2026-12-31T23:59:59.999Z" },
      },
    });
  });

  it("sends match type 'any' when no tags are included; curations have no feedConfig", async () => {
    const { client } = await signedUp("sd");
    const feed = await create(client, { name: "f", type: "feed", feedConfig: { tagMatchType: "all" } });
    expect(feed.feedConfig.tagMatchType).toBe("any");
    const curation = await create(client, { name: "c", type: "curation" });
    expect(curation.feedConfig).toBeNull();
  });

  it.each([
    [{ type: "feed" }, "name is required"],
    [{ name: "  ", type: "feed" }, "name is required"],
    [{ name: "x".repeat(51), type: "feed" }, "name must be at most 50 characters"],
    [{ name: "ok", description: "d".repeat(201), type: "feed" }, "description must be at most 200 characters"],
    [{ name: "ok", type: "blog" }, "type must be feed or curation"],
    [{ name: "ok", type: "feed", isPrivate: "yes" }, "isPrivate must be true or false"],
    [{ name: "ok", type: "feed", feedConfig: { includedTags: Array.from({ length: 26 }, (_, i) => `t${i}`) } }, "feedConfig.includedTags: at most 25 tags"],
    [{ name: "ok", type: "feed", feedConfig: { sortBy: "random" } }, "feedConfig.sortBy must be one of newestFirst, oldestFirst, mostLiked"],
    [{ name: "ok", type: "feed", feedConfig: { authors: ["nope"] } }, "feedConfig.authors must be user ids"],
    [{ name: "ok", type: "feed", feedConfig: { authors: ["01aaaaaaaaaaaaaaaaaaaaaaaa"] } }, "One of the chosen authors no longer exists"],
    [{ name: "ok", type: "feed", feedConfig: { dateRange: { startDate: "2026-05-01", endDate: "2026-01-01" } } }, "The start date must be on or before the end date"],
    [{ name: "ok", type: "curation", feedConfig: {} }, "feedConfig is only for feed scrolls"],
  ])("rejects %j with 400 and creates nothing", async (body, message) => {
    const { client } = await signedUp("sv");
    const res = await client.post("/api/scroll/create", body);
    expect(res.status).toBe(400);
    expectErrorShape(res.json);
    expect(res.json.error).toBe(message);
    expect((await client.get("/api/scroll/all")).json.scrolls).toEqual([]);
  });
});

describe("feeds show exactly the matching echos", () => {
  it("include any/all, exclude, authors, hide-liked, most-liked", async () => {
    const { client: a, user: ua } = await signedUp("fa");
    const { client: b } = await signedUp("fb");
    const t1 = uniq();
    const t2 = uniq();
    const bad = uniq();
    const e1 = await post(a, "both", [t1, t2]);
    await post(a, "only t1", [t1]);
    await post(b, "only t2 by b", [t2]);
    await post(a, "t1 but bad", [t1, bad]);
    await b.post(`/api/echo/like/${e1._id}`);
    const feed = async (feedConfig: Json) => {
      const s = await create(a, { name: "f", type: "feed", feedConfig });
      return contents(await a.get(`/api/scroll/${s._id}/echos`));
    };
    expect(await feed({ includedTags: [t1, t2], tagMatchType: "any" })).toEqual(["t1 but bad", "only t2 by b", "only t1", "both"]);
    expect(await feed({ includedTags: [t1, t2], tagMatchType: "all" })).toEqual(["both"]);
    expect(await feed({ includedTags: [t1], excludedTags: [bad] })).toEqual(["only t1", "both"]);
    expect(await feed({ includedTags: [t1, t2], authors: [ua._id] })).toEqual(["t1 but bad", "only t1", "both"]);
    expect(await feed({ includedTags: [t1, t2], sortBy: "oldestFirst" })).toEqual(["both", "only t1", "only t2 by b", "t1 but bad"]);
    expect(await feed({ includedTags: [t1, t2], sortBy: "mostLiked", sortTimeRange: "1day" })).toEqual([
      "both",
      "t1 but bad",
      "only t2 by b",
      "only t1",
    ]);
    await a.post(`/api/echo/like/${e1._id}`);
    expect(await feed({ includedTags: [t1], excludeLikedEchos: true })).toEqual(["t1 but bad", "only t1"]);
    expect(await feed({ includedTags: [t1], dateRange: { endDate: "2001-01-01" } })).toEqual([]);
  });

  it("paginates a feed by cursor and page; limit clamps", async () => {
    const { client } = await signedUp("fp");
    const t = uniq();
    for (let i = 0; i < 5; i++) await post(client, `p${i}`, [t]);
    const s = await create(client, { name: "paged", type: "feed", feedConfig: { includedTags: [t] } });
    const first = await client.get(`/api/scroll/${s._id}/echos?limit=2`);
    expect(contents(first)).toEqual(["p4", "p3"]);
    // a feed's total is a lower bound (no COUNT over the rule): what is known up to this page
    expect(first.json.pagination).toMatchObject({ page: 1, limit: 2, total: 3, totalPages: 2, hasMore: true });
    const second = await client.get(`/api/scroll/${s._id}/echos?limit=2&page=2&cursor=${first.json.pagination.nextCursor}`);
    expect(contents(second)).toEqual(["p2", "p1"]);
    const last = await client.get(`/api/scroll/${s._id}/echos?limit=2&page=3`);
    expect(contents(last)).toEqual(["p0"]);
    expect(last.json.pagination).toMatchObject({ total: 5, totalPages: 3, hasMore: false });
    // a cursor that is not an echo id (and a fractional like count) is a 400, never a 500
    const cursor = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    for (const bad of [{ id: "01" }, { id: "x' OR 1=1 --" }, { id: first.json.echos[0]._id, l: 1.5 }, { id: 7 }]) {
      const res = await client.get(`/api/scroll/${s._id}/echos?limit=2&cursor=${cursor(bad)}`);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json.error).toBe("cursor is invalid");
    }
    const past = await client.get(`/api/scroll/${s._id}/echos?limit=2&page=7`);
    expect(past.json.echos).toEqual([]);
    expect(past.json.pagination.hasMore).toBe(false);
  });
});

describe("a feed's page in the lookup's round trip (the isolate's rule hint)", () => {
  const rt = (res: { headers: Headers }) => Number(/rt=(\d+)/.exec(res.headers.get("server-timing") ?? "")?.[1]);
  it("reads the page with its lookup once the rule is known, and never serves a stale or hidden rule", async () => {
    const { client: a } = await signedUp("ha");
    const { client: b } = await signedUp("hb");
    const [x, y] = [uniq(), uniq()];
    await post(a, "under x", [x]);
    await post(a, "under y", [y]);
    const s = await create(a, { name: "hinted", type: "feed", feedConfig: { includedTags: [x] } });
    const page = `/api/scroll/${s._id}/echos`;
    const first = await b.get(page);
    expect(contents(first)).toEqual(["under x"]);
    const again = await b.get(page);
    expect(contents(again)).toEqual(["under x"]);
    expect(rt(again)).toBe(1); // the session check, the lookup and the page: one batch
    // another reader's hint is the same rule; their hide-liked state is their own
    expect(contents(await a.get(page))).toEqual(["under x"]);
    // edited: the hinted page reads nothing, the new rule's page is read after the lookup
    expect((await a.request("PATCH", `/api/scroll/${s._id}`, { feedConfig: { includedTags: [y] } })).status).toBe(200);
    const edited = await b.get(page);
    expect(contents(edited)).toEqual(["under y"]);
    expect(rt(edited)).toBe(2);
    expect(contents(await b.get(page))).toEqual(["under y"]);
    // made private: the hint reads nothing and the answer is the lookup's 403
    expect((await a.request("PATCH", `/api/scroll/${s._id}`, { isPrivate: true })).status).toBe(200);
    const hidden = await b.get(page);
    expect(hidden.status).toBe(403);
    expectErrorShape(hidden.json);
    expect(contents(await a.get(page))).toEqual(["under y"]);
    // deleted: 404
    expect((await a.delete(`/api/scroll/${s._id}`)).status).toBe(200);
    expect((await b.get(page)).status).toBe(404);
  });
});

describe("curations", () => {
  it("add (twice is a no-op), list newest-added first, remove; only own curations", async () => {
    const { client: a } = await signedUp("ca");
    const { client: b } = await signedUp("cb");
    const e1 = await post(b, "first");
    const e2 = await post(b, "second");
    const cur = await create(a, { name: "picks", type: "curation" });
    const first = await a.post(`/api/scroll/${cur._id}/add-echo`, { echoId: e2._id });
    expect([first.status, first.json.alreadyInScroll]).toEqual([200, false]);
    const again = await a.post(`/api/scroll/${cur._id}/add-echo`, { echoId: e2._id });
    expect(again.status).toBe(200);
    expect(again.json.scroll.echosCount).toBe(1);
    expect(again.json.alreadyInScroll).toBe(true); // the UI says "already in that scroll", not "added"
    await a.post(`/api/scroll/${cur._id}/add-echo`, { echoId: e1._id });
    expect(contents(await a.get(`/api/scroll/${cur._id}/echos`))).toEqual(["first", "second"]);
    expect((await b.post(`/api/scroll/${cur._id}/add-echo`, { echoId: e1._id })).status).toBe(403);
    expect((await a.post(`/api/scroll/${cur._id}/add-echo`, { echoId: "01aaaaaaaaaaaaaaaaaaaaaaaa" })).status).toBe(404);
    expect((await a.post(`/api/scroll/${cur._id}/add-echo`, {})).json.error).toBe("echoId is required");
    const feed = await create(a, { name: "feed", type: "feed" });
    expect((await a.post(`/api/scroll/${feed._id}/add-echo`, { echoId: e1._id })).status).toBe(400);
    const removed = await a.delete(`/api/scroll/${cur._id}/remove-echo/${e1._id}`);
    expect(removed.status).toBe(200);
    expect(removed.json.scroll.echosCount).toBe(1);
    expect((await b.delete(`/api/scroll/${cur._id}/remove-echo/${e2._id}`)).status).toBe(403);
  });

  it("pages newest-added first by cursor and by page number: every echo once, in order, liked ones marked", async () => {
    const { client: a } = await signedUp("cp");
    const cur = await create(a, { name: "many", type: "curation" });
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const e = await post(a, `pick ${i}`);
      made.push(e._id);
      await a.post(`/api/scroll/${cur._id}/add-echo`, { echoId: e._id });
    }
    await a.post(`/api/echo/like/${made[5]}`);
    const seen: { id: string; liked: boolean }[] = [];
    let url = `/api/scroll/${cur._id}/echos?limit=3`;
    for (let page = 1; page < 10; page++) {
      const res = await a.get(url);
      expect(res.status).toBe(200);
      expect(res.json.pagination.total).toBe(7);
      seen.push(...res.json.echos.map((e: { _id: string; isLiked: boolean }) => ({ id: e._id, liked: e.isLiked })));
      if (!res.json.pagination.hasMore) break;
      url = `/api/scroll/${cur._id}/echos?limit=3&page=${page + 1}&cursor=${res.json.pagination.nextCursor}`;
    }
    expect(seen.map((e) => e.id)).toEqual([...made].reverse());
    expect(seen.filter((e) => e.liked).map((e) => e.id)).toEqual([made[5]]);
    const third = await a.get(`/api/scroll/${cur._id}/echos?limit=3&page=3`);
    expect(third.json.echos.map((e: { _id: string }) => e._id)).toEqual([made[0]]);
  });

  it("a deleted echo leaves every curation", async () => {
    const { client: a } = await signedUp("cd");
    const e = await post(a, "soon gone");
    const cur = await create(a, { name: "c", type: "curation" });
    await a.post(`/api/scroll/${cur._id}/add-echo`, { echoId: e._id });
    await a.delete(`/api/echo/delete/${e._id}`);
    const res = await a.get(`/api/scroll/${cur._id}/echos`);
    expect(res.json.echos).toEqual([]);
    expect((await a.get(`/api/scroll/${cur._id}`)).json.scroll.echosCount).toBe(0);
  });
});

describe("privacy, follows, permissions", () => {
  it("a private scroll answers 403 to others: read, echos, follow", async () => {
    const { client: a } = await signedUp("pa");
    const { client: b } = await signedUp("pb");
    const s = await create(a, { name: "secret", type: "curation", isPrivate: true });
    expect((await a.get(`/api/scroll/${s._id}`)).status).toBe(200);
    for (const res of [
      await b.get(`/api/scroll/${s._id}`),
      await b.get(`/api/scroll/${s._id}/echos`),
      await b.post(`/api/scroll/${s._id}/follow`),
    ]) {
      expect(res.status).toBe(403);
      expectErrorShape(res.json);
    }
  });

  it("follow/unfollow others' public scrolls; never your own; lists and counts follow", async () => {
    const { client: a } = await signedUp("fo");
    const { client: b } = await signedUp("fp");
    const s = await create(a, { name: "public", type: "feed" });
    expect((await a.post(`/api/scroll/${s._id}/follow`)).status).toBe(400);
    const followed = await b.post(`/api/scroll/${s._id}/follow`);
    expect(followed.status).toBe(200);
    expect(followed.json.scroll).toMatchObject({ isFollowing: true, followersCount: 1 });
    expect((await b.post(`/api/scroll/${s._id}/follow`)).json.scroll.followersCount).toBe(1);
    expect((await b.get("/api/scroll/all")).json.scrolls.map((x: Json) => x._id)).toContain(s._id);
    const un = await b.delete(`/api/scroll/${s._id}/follow`);
    expect(un.json.scroll).toMatchObject({ isFollowing: false, followersCount: 0, savedBy: [] });
    expect((await b.get("/api/scroll/all")).json.scrolls).toEqual([]);
  });

  it("only the creator edits or deletes; a deleted scroll leaves followers' lists", async () => {
    const { client: a } = await signedUp("da");
    const { client: b } = await signedUp("db");
    const s = await create(a, { name: "to delete", type: "feed" });
    await b.post(`/api/scroll/${s._id}/follow`);
    expect((await b.request("PATCH", `/api/scroll/${s._id}`, { name: "hijack" })).status).toBe(403);
    expect((await b.delete(`/api/scroll/${s._id}`)).status).toBe(403);
    const edited = await a.request("PATCH", `/api/scroll/${s._id}`, { name: "renamed", feedConfig: { includedTags: ["x"] } });
    expect(edited.status).toBe(200);
    expect(edited.json.scroll).toMatchObject({ name: "renamed", feedConfig: { includedTags: [{ _id: "x", name: "x" }] } });
    expect((await a.request("PATCH", `/api/scroll/${s._id}`, { type: "curation" })).json.error).toBe("type cannot change");
    expect((await a.delete(`/api/scroll/${s._id}`)).status).toBe(200);
    expect((await a.get(`/api/scroll/${s._id}`)).status).toBe(404);
    expect((await b.get("/api/scroll/all")).json.scrolls).toEqual([]);
  });

  it("making a scroll private drops its followers", async () => {
    const { client: a } = await signedUp("ma");
    const { client: b } = await signedUp("mb");
    const s = await create(a, { name: "soon private", type: "feed" });
    await b.post(`/api/scroll/${s._id}/follow`);
    await a.request("PATCH", `/api/scroll/${s._id}`, { isPrivate: true });
    expect((await a.get(`/api/scroll/${s._id}`)).json.scroll.followersCount).toBe(0);
    expect((await b.get("/api/scroll/all")).json.scrolls).toEqual([]);
  });
});

describe("GET /api/search/users", () => {
  it("matches prefix first, then substring, case-insensitively; at most 10", async () => {
    const tag = Date.now().toString(36).slice(-5);
    const { client } = await signedUp(`zz${tag}`);
    await signedUp(`${tag}first`);
    const res = await client.get(`/api/search/users?q=${tag.toUpperCase()}`);
    expect(res.status).toBe(200);
    const names = res.json.users.map((u: Json) => u.userName);
    expect(names[0]!.startsWith(tag)).toBe(true);
    expect(names.some((n: string) => n.startsWith("zz"))).toBe(true);
    expect(res.json.users.length).toBeLessThanOrEqual(10);
    expect(Object.keys(res.json.users[0]).sort()).toEqual(["_id", "userName"]);
    expect((await client.get("/api/search/users?q=")).json.users).toEqual([]);
    expect((await new Client().get("/api/search/users?q=a")).status).toBe(401);
  });

  it("finds a name by any part of 3+ characters, a shorter term by prefix only; other characters match no one", async () => {
    const tag = Date.now().toString(36).slice(-5);
    const { client, user } = await signedUp(`ab${tag}.Xy-z`);
    const names = async (q: string) => {
      const res = await client.get(`/api/search/users?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      return res.json.users.map((u: Json) => u.userName) as string[];
    };
    expect(await names(`${tag}.x`)).toContain(user.userName); // inside, across "." and case
    expect(await names(`${tag.slice(1)}.XY-Z`)).toContain(user.userName);
    expect(await names(`AB${tag}`)).toEqual([user.userName]); // prefix, case-insensitively
    expect(await names("y-")).not.toContain(user.userName); // 2 characters: prefix only
    expect(await names(`${tag} x`)).toEqual([]); // a space is in no name
    expect(await names(`${tag}"x`)).toEqual([]); // FTS syntax is in no name either
    expect(await names(`${tag}%`)).toEqual([]);
    // a deleted account leaves the index with it
    const gone = await signedUp(`cd${tag}gone`);
    expect(await names(`${tag}gon`)).toEqual([gone.user.userName]);
    expect((await gone.client.request("DELETE", "/api/profile/me", { password: "pass1234" })).status).toBe(200);
    expect(await names(`${tag}gon`)).toEqual([]);
  });
});
