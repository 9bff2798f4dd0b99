// "Download my data" (issue 17): GET /api/profile/me/export over real HTTP. The file holds
// exactly what the user made — no more (another user's echos, likes and scrolls stay out), no
// less — and a list longer than one read page (likes here, 205 > 200) streams through whole.
// modules/profile/export.server.test.ts streams a 1,000-echo user inside workerd.
import { beforeAll, describe, expect, it } from "vitest";
import { Client, expectErrorShape, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type User = Awaited<ReturnType<typeof signedUp>>;

let me: User;
let friend: User;
let stranger: User;
const mine: Json[] = [];
let friendEchos: string[] = [];
let feedId: string;
let curationId: string;
let followedScrollId: string;
let file: { status: number; headers: Headers; json: Json };
let reply: Json;
let quote: Json;

async function replyTo(user: User, parentId: string, content: string) {
  const res = await user.client.post(`/api/echo/${parentId}/reply`, { content });
  expect(res.status).toBe(201);
  return res.json.echo as Json;
}

async function post(user: User, content: string, tags: string[] = []) {
  const res = await user.client.post("/api/echo/post", { content, tags });
  expect(res.status).toBe(201);
  return res.json.echo as Json;
}

beforeAll(async () => {
  [me, friend, stranger] = await Promise.all([signedUp("ex"), signedUp("exf"), signedUp("exs")]);
  await me.client.request("PATCH", "/api/profile/me", { bio: "my bio", email: "me@example.com" });
  mine.push(await post(me, "first <b>echo</b> & more", ["exporta"]), await post(me, "second\nline", ["exporta", "exportb"]), await post(me, "third"));
  // others' echos to like: more than one read page of likes (the post limit allows 70 each)
  const extra = await signedUp("exx");
  const posted = await Promise.all([friend, stranger, extra].map(async (u) => {
    const ids: string[] = [];
    for (let n = 0; n < 70; n++) ids.push((await post(u, `other ${n}`))._id as string);
    return ids;
  }));
  friendEchos = posted.flat();
  for (const id of [...friendEchos.slice(0, 204), mine[0]!._id]) expect((await me.client.post(`/api/echo/like/${id}`)).status).toBe(200);
  feedId = (await me.client.post("/api/scroll/create", {
    name: "My feed",
    type: "feed",
    isPrivate: true,
    feedConfig: { includedTags: ["exporta"], excludedTags: ["spam"], tagMatchType: "any", sortBy: "mostLiked", sortTimeRange: "1month", excludeLikedEchos: true },
  })).json.scroll._id;
  curationId = (await me.client.post("/api/scroll/create", { name: "My picks", description: "good ones", type: "curation" })).json.scroll._id;
  for (const id of [friendEchos[0], mine[1]!._id]) expect((await me.client.post(`/api/scroll/${curationId}/add-echo`, { echoId: id })).status).toBe(200);
  followedScrollId = (await friend.client.post("/api/scroll/create", { name: "Friend's", type: "curation" })).json.scroll._id;
  await friend.client.post(`/api/scroll/${followedScrollId}/add-echo`, { echoId: mine[2]!._id });
  await stranger.client.post("/api/scroll/create", { name: "Not mine", type: "feed", feedConfig: {} });
  // a reply, a quote and two reposts of mine (decision 027); the friend's repost is not mine
  reply = await replyTo(me, friendEchos[1]!, "my reply");
  quote = (await me.client.post(`/api/echo/${friendEchos[2]}/quote`, { content: "my quote", warning: "spoilers" })).json.echo as Json;
  for (const id of [friendEchos[3]!, mine[0]!._id]) expect((await me.client.post(`/api/echo/${id}/repost`)).status).toBe(200);
  expect((await friend.client.post(`/api/echo/${mine[1]!._id}/repost`)).status).toBe(200);
  expect((await me.client.post(`/api/profile/user/${friend.user._id}/follow`)).status).toBe(200);
  expect((await me.client.post(`/api/scroll/${followedScrollId}/follow`)).status).toBe(200);
  // the friend follows me: not mine to export
  await friend.client.post(`/api/profile/user/${me.user._id}/follow`);
  const res = await me.client.get("/api/profile/me/export");
  file = { status: res.status, headers: res.headers, json: res.json as Json };
}, 600_000);

describe("GET /api/profile/me/export", () => {
  it("is 401 signed out, in the error shape", async () => {
    const res = await new Client().get("/api/profile/me/export");
    expect(res.status).toBe(401);
    expectErrorShape(res.json);
  });

  it("Settings links to it: \"Download my data\"", async () => {
    const page = await me.client.get("/settings");
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<a class="btn" href="\/api\/profile\/me\/export" download="">Download my data<\/a>/);
  });

  it("is a JSON download named after the user", () => {
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="echo-${me.user.userName}.json"`);
    expect(file.headers.get("cache-control")).toBe("no-store");
  });

  it("holds the profile and exactly the user's echos", () => {
    const { profile, echos } = file.json;
    expect(profile).toMatchObject({ _id: me.user._id, userName: me.user.userName, bio: "my bio", email: "me@example.com" });
    expect(echos.map((e: Json) => [e._id, e.content, e.tags])).toEqual([...mine, reply, quote].map((e) => [e._id, e.content, e.tags.map((t: Json) => t.name)]));
    expect(echos[0].likes).toBe(1);
    // what each answered or quoted, and its warning
    expect(echos.map((e: Json) => [e.parentId, e.quoteOfId, e.warning])).toEqual([
      [null, null, null],
      [null, null, null],
      [null, null, null],
      [friendEchos[1], null, null],
      [null, friendEchos[2], "spoilers"],
    ]);
  });

  it("holds exactly the user's reposts, oldest first (decision 027)", () => {
    expect(file.json.reposts.map((r: Json) => r.echoId)).toEqual([friendEchos[3], mine[0]!._id]);
    for (const r of file.json.reposts) expect(Date.parse(r.repostedAt)).not.toBeNaN();
  });

  it("holds exactly the user's likes, past one read page", () => {
    const liked = file.json.likes.map((l: Json) => l.echoId).sort();
    expect(liked).toEqual([...friendEchos.slice(0, 204), mine[0]!._id].sort());
    expect(liked.length).toBe(205);
    for (const l of file.json.likes) expect(Date.parse(l.likedAt)).not.toBeNaN();
  });

  it("holds the user's scrolls: a feed's rules and a curation's items", () => {
    const scrolls = file.json.scrolls as Json[];
    expect(scrolls.map((s) => s._id).sort()).toEqual([feedId, curationId].sort());
    const feed = scrolls.find((s) => s._id === feedId)!;
    expect(feed).toMatchObject({ name: "My feed", type: "feed", isPrivate: true });
    expect(feed.rules).toEqual({
      tagMatchType: "any",
      includedTags: ["exporta"],
      excludedTags: ["spam"],
      authors: [],
      sortBy: "mostLiked",
      sortTimeRange: "1month",
      excludeLikedEchos: true,
      startDate: null,
      endDate: null,
      replies: false,
    });
    expect(feed.items).toBeUndefined();
    const curation = scrolls.find((s) => s._id === curationId)!;
    expect(curation).toMatchObject({ name: "My picks", description: "good ones", type: "curation", isPrivate: false, rules: null });
    // newest added first, as the curation's page shows them
    expect(curation.items.map((i: Json) => i.echoId)).toEqual([mine[1]!._id, friendEchos[0]]);
  });

  it("holds whom the user follows and the scrolls they follow, not their followers", () => {
    expect(file.json.following.map((f: Json) => [f._id, f.userName])).toEqual([[friend.user._id, friend.user.userName]]);
    expect(file.json.followedScrolls.map((f: Json) => [f._id, f.name])).toEqual([[followedScrollId, "Friend's"]]);
  });

  it("states its real D1 cost: Server-Timing counts only what ran before the body and says so; the file's last member, d1, counts the whole stream", () => {
    // the test server exposes D1 stats (EXPOSE_D1_STATS=1)
    const timing = file.headers.get("server-timing") ?? "";
    const head = /d1;desc="rt=(\d+) rows=(\d+) written=(\d+) before the body"/.exec(timing);
    expect(head, timing).not.toBeNull();
    expect(timing).toContain("d1-body;");
    expect(Object.keys(file.json).at(-1)).toBe("d1");
    const { d1 } = file.json;
    // a round trip per page of each list: the profile, echos, 2 pages of likes (205), reposts,
    // scrolls, the curation's items, following, followed scrolls
    expect(d1.roundTrips).toBe(9);
    expect(d1.roundTrips).toBeGreaterThan(Number(head![1]));
    // at least a row per exported item: 3 echos, 205 likes, 3 scrolls, 2 items, 1 follow, 1 followed scroll
    expect(d1.rowsRead).toBeGreaterThanOrEqual(3 + 205 + 3 + 2 + 2 + 2);
    expect(d1.rowsRead).toBeGreaterThan(Number(head![2]));
  });
});
