import { describe, expect, it } from "vitest";
import { BASE_URL, Client, expectErrorShape, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function rank() {
  const res = await fetch(`${BASE_URL}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
  expect(res.ok).toBe(true);
}

describe("profiles", () => {
  it("returns the profile shape with exact counts; email only on one's own", async () => {
    const { client: a, user: ua } = await signedUp("pa");
    const { client: b, user: ub } = await signedUp("pb");
    await a.post("/api/echo/post", { content: "hello", tags: [] });
    await a.post("/api/scroll/create", { name: "public", type: "feed" });
    await a.post("/api/scroll/create", { name: "private", type: "curation", isPrivate: true });
    await a.request("PATCH", "/api/profile/me", { bio: "  hi there  ", email: "a@example.com" });
    const me = (await a.get("/api/profile/me")).json;
    expect(me).toMatchObject({ _id: ua._id, userName: ua.userName, bio: "hi there", email: "a@example.com", echosCount: 1, scrollsCount: 2, followersCount: 0, followingCount: 0, isFollowing: false });
    const seen = (await b.get(`/api/profile/user/${ua._id}`)).json;
    expect(seen.email).toBeUndefined();
    expect(seen.scrollsCount).toBe(1);
    const scrolls = (await b.get(`/api/profile/user/${ua._id}/scrolls?type=created`)).json;
    expect(scrolls.scrolls.map((s: Json) => s.name)).toEqual(["public"]);
    expect(scrolls.pagination).toMatchObject({ page: 1, limit: 10, total: 1, hasMore: false });
    // the public count others see follows privacy changes and deletes (trigger-kept counter)
    const priv = (await a.get(`/api/profile/user/${ua._id}/scrolls?type=created`)).json.scrolls.find((x: Json) => x.name === "private");
    await a.request("PATCH", `/api/scroll/${priv._id}`, { isPrivate: false });
    expect((await b.get(`/api/profile/user/${ua._id}`)).json.scrollsCount).toBe(2);
    expect((await b.get(`/api/profile/user/${ua._id}/scrolls?type=created`)).json.pagination.total).toBe(2);
    await a.request("PATCH", `/api/scroll/${priv._id}`, { isPrivate: true });
    await a.request("PATCH", `/api/scroll/${priv._id}`, { isPrivate: true });
    expect((await b.get(`/api/profile/user/${ua._id}`)).json.scrollsCount).toBe(1);
    await a.request("DELETE", `/api/scroll/${priv._id}`);
    expect((await a.get("/api/profile/me")).json.scrollsCount).toBe(1);
    expect((await b.get(`/api/profile/user/${ua._id}`)).json.scrollsCount).toBe(1);
    expect((await b.get(`/api/profile/user/${ua._id}/echos`)).json.pagination.limit).toBe(10);
    expect((await b.get(`/api/profile/user/${ub._id}/scrolls?type=nope`)).status).toBe(400);
    expect((await b.get(`/api/profile/user/01aaaaaaaaaaaaaaaaaaaaaaaa`)).status).toBe(404);
  });

  it("follows and unfollows users with exact counters and lists; never oneself", async () => {
    const { client: a, user: ua } = await signedUp("fa");
    const { client: b, user: ub } = await signedUp("fb");
    const { client: c } = await signedUp("fc");
    expect((await a.post(`/api/profile/user/${ua._id}/follow`)).status).toBe(400);
    expect((await b.post(`/api/profile/user/${ua._id}/follow`)).json).toMatchObject({ isFollowing: true, followersCount: 1 });
    expect((await b.post(`/api/profile/user/${ua._id}/follow`)).json.followersCount).toBe(1);
    await c.post(`/api/profile/user/${ua._id}/follow`);
    const followers = (await a.get(`/api/profile/user/${ua._id}/followers?limit=1`)).json;
    expect(followers.followers).toHaveLength(1);
    expect(followers.pagination).toMatchObject({ page: 1, limit: 1, total: 2, totalPages: 2, hasMore: true });
    expect((await a.get(`/api/profile/user/${ub._id}/following`)).json.following.map((u: Json) => u._id)).toEqual([ua._id]);
    expect((await b.delete(`/api/profile/user/${ua._id}/follow`)).json).toMatchObject({ isFollowing: false, followersCount: 1 });
    expect((await b.get(`/api/profile/me`)).json.followingCount).toBe(0);
  });

  it.each([
    [{ bio: "x".repeat(301) }, "bio must be at most 300 characters"],
    [{ bio: 5 }, "bio must be a string"],
    [{ email: "not-an-email" }, "email must be a valid address"],
    [[1], "Request body must be a JSON object"],
  ])("rejects profile edit %j with 400 and changes nothing", async (body, message) => {
    const { client } = await signedUp("pe");
    await client.request("PATCH", "/api/profile/me", { bio: "kept" });
    const res = await client.request("PATCH", "/api/profile/me", body);
    expect(res.status).toBe(400);
    expectErrorShape(res.json);
    expect(res.json.error).toBe(message);
    expect((await client.get("/api/profile/me")).json.bio).toBe("kept");
  });
});

describe("community", () => {
  it("lists public scrolls only, honours limits, answers bare arrays", async () => {
    const { client } = await signedUp("cm");
    const secret = `secret${Date.now().toString(36)}`;
    await client.post("/api/scroll/create", { name: secret, type: "feed", isPrivate: true });
    await client.post("/api/scroll/create", { name: `open${Date.now().toString(36)}`, type: "curation" });
    const feeds = await client.get("/api/community/scrolls/public/feed?limit=100");
    expect(Array.isArray(feeds.json)).toBe(true);
    expect(feeds.json.every((s: Json) => s.type === "feed" && s.isPrivate === false)).toBe(true);
    expect(feeds.json.some((s: Json) => s.name === secret)).toBe(false);
    const curations = await client.get("/api/community/scrolls/public/curation?limit=1");
    expect(curations.json.length).toBeLessThanOrEqual(1);
    expect((await client.get("/api/community/tags?limit=2")).json.length).toBeLessThanOrEqual(2);
    expect((await client.get("/api/community/tags?limit=x")).status).toBe(400);
    expect((await client.get("/api/community/echos/popular?period=decade")).status).toBe(400);
    expect((await client.get("/api/community/echos/popular?sort=random")).status).toBe(400);
    expect((await new Client().get("/api/community/tags")).status).toBe(401);
  });

  it("ranks after the cron pass: a much-liked echo tops today's and all time's likes; its tag trends", async () => {
    const { client: author } = await signedUp("rk");
    const tag = `rank${Date.now().toString(36)}`;
    const echo = (await author.post("/api/echo/post", { content: "rank me", tags: [tag] })).json.echo;
    for (let i = 0; i < 6; i++) {
      const { client } = await signedUp(`rl${i}`);
      await client.post(`/api/echo/like/${echo._id}`);
      await client.post(`/api/echo/${echo._id}/share`);
    }
    await rank();
    for (const period of ["today", "week", "month", "all"]) {
      const top = (await author.get(`/api/community/echos/popular?limit=1&period=${period}&sort=likes`)).json;
      expect(top[0]).toMatchObject({ _id: echo._id, likes: 6 });
      const shared = (await author.get(`/api/community/echos/popular?limit=1&period=${period}&sort=shares`)).json;
      expect(shared[0]._id).toBe(echo._id);
    }
    const tags = (await author.get("/api/community/tags?limit=100")).json;
    expect(tags.find((t: Json) => t.name === tag)).toMatchObject({ _id: tag, count: 1, recentEchosCount: 1 });
  });
});
