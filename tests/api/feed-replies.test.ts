// The feeds' `replies` rule option (decision 024, "Feeds"): a feed shows replies only when its rule
// says so. Off by default; on, a reply is in the feed like any echo that meets the rule. Through
// every way a feed is read: its pages (engine and index), the preview, "why", a fork.
import { describe, expect, it } from "vitest";
import { d1Cost, signedUp, untilPage as until } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const uniq = () => "r" + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);
const ids = (page: Json) => (page.echos as Json[]).map((e) => e._id);

describe("a feed's replies option", () => {
  it("off by default: a feed leaves replies out; on: they are in, in order; pages within budget", async () => {
    const { client } = await signedUp("frp");
    const tag = uniq();
    const top = (await client.post("/api/echo/post", { content: "top", tags: [tag] })).json.echo;
    const reply = (await client.post(`/api/echo/${top._id}/reply`, { content: "a reply", tags: [tag] })).json.echo;
    const later = (await client.post("/api/echo/post", { content: "later", tags: [tag] })).json.echo;
    expect(reply.parentId).toBe(top._id);
    const plain = (await client.post("/api/scroll/create", { name: "No replies", type: "feed", feedConfig: { includedTags: [tag] } })).json.scroll;
    const withReplies = (await client.post("/api/scroll/create", { name: "Replies", type: "feed", feedConfig: { includedTags: [tag], replies: true } })).json.scroll;
    expect(plain.feedConfig.replies).toBe(false);
    expect(withReplies.feedConfig.replies).toBe(true);
    for (const sortBy of ["newestFirst", "mostLiked"]) {
      await client.patch(`/api/scroll/${plain._id}`, { feedConfig: { includedTags: [tag], sortBy } });
      await client.patch(`/api/scroll/${withReplies._id}`, { feedConfig: { includedTags: [tag], sortBy, replies: true } });
      const a = await until(client, `/api/scroll/${plain._id}/echos?limit=20`, (p) => p.echos.length === 2);
      expect(ids(a.json)).toEqual([later._id, top._id]);
      const b = await until(client, `/api/scroll/${withReplies._id}/echos?limit=20`, (p) => p.echos.length === 3);
      expect(ids(b.json)).toEqual([later._id, reply._id, top._id]);
      for (const res of [a, b]) {
        expect(d1Cost(res).rows).toBeLessThanOrEqual(200);
        expect(d1Cost(res).roundTrips).toBeLessThanOrEqual(2);
      }
    }
    // a reply posted now reaches the feed with replies (through the change stream) and not the other
    const next = (await client.post(`/api/echo/${later._id}/reply`, { content: "another", tags: [tag] })).json.echo;
    const b = await until(client, `/api/scroll/${withReplies._id}/echos?limit=20`, (p) => p.echos.length === 4);
    expect(ids(b.json)).toContain(next._id);
    await new Promise((r) => setTimeout(r, 1000));
    expect(ids((await client.get(`/api/scroll/${plain._id}/echos?limit=20`)).json)).not.toContain(next._id);
    // a feed with no tag or author rule: the partial index of top-level echos; every page full
    const author = await signedUp("frq");
    const own = (await author.client.post("/api/echo/post", { content: "own", tags: [] })).json.echo;
    const ownReply = (await author.client.post(`/api/echo/${own._id}/reply`, { content: "own reply", tags: [] })).json.echo;
    const everything = (await client.post("/api/scroll/create", { name: "All", type: "feed", feedConfig: {} })).json.scroll;
    const all = await client.get(`/api/scroll/${everything._id}/echos?limit=20`);
    expect(all.json.echos.length).toBe(20);
    expect(all.json.echos.every((e: Json) => e.parentId === null)).toBe(true);
    expect(ids(all.json)).toContain(own._id);
    expect(ids(all.json)).not.toContain(ownReply._id);
    expect(d1Cost(all).rows).toBeLessThanOrEqual(200);
    // an author's feed: the engine tests the echo row
    const byAuthor = (await client.post("/api/scroll/create", { name: "Author", type: "feed", feedConfig: { authors: [author.user._id] } })).json.scroll;
    const authored = await until(client, `/api/scroll/${byAuthor._id}/echos?limit=20`, (p) => p.echos.length === 1);
    expect(ids(authored.json)).toEqual([own._id]);
  });

  it("preview, why and fork follow the option", async () => {
    const { client } = await signedUp("frw");
    const tag = uniq();
    const top = (await client.post("/api/echo/post", { content: "top", tags: [tag] })).json.echo;
    const reply = (await client.post(`/api/echo/${top._id}/reply`, { content: "a reply", tags: [tag] })).json.echo;
    const off = await client.post("/api/scroll/preview", { feedConfig: { includedTags: [tag] } });
    expect(ids(off.json)).toEqual([top._id]);
    expect(off.json.matchCount).toBe(1);
    const on = await client.post("/api/scroll/preview", { feedConfig: { includedTags: [tag], replies: true } });
    expect(ids(on.json)).toEqual([reply._id, top._id]);
    expect(on.json.matchCount).toBe(2);
    const feed = (await client.post("/api/scroll/create", { name: "W", type: "feed", feedConfig: { includedTags: [tag] } })).json.scroll;
    const why = (await client.get(`/api/scroll/${feed._id}/why/${reply._id}`)).json;
    expect(why.inFeed).toBe(false);
    expect(why.reasons).toContainEqual({ rule: "replies", passed: false, text: "it is a reply, and this feed leaves replies out" });
    expect((await client.get(`/api/scroll/${feed._id}/why/${top._id}`)).json.inFeed).toBe(true);
    const other = await signedUp("frx");
    const withReplies = (await client.post("/api/scroll/create", { name: "W2", type: "feed", feedConfig: { includedTags: [tag], replies: true } })).json.scroll;
    const fork = (await other.client.post(`/api/scroll/${withReplies._id}/fork`)).json.scroll;
    expect(fork.feedConfig.replies).toBe(true);
    expect((await other.client.get(`/api/scroll/${fork._id}/why/${reply._id}`)).json.inFeed).toBe(true);
  });

  it("a value that is not true or false: 400 naming the field, nothing created or changed", async () => {
    const { client } = await signedUp("fry");
    const before = (await client.get("/api/scroll/all")).json.scrolls.length;
    const bad = await client.post("/api/scroll/create", { name: "Bad", type: "feed", feedConfig: { replies: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe("feedConfig.replies must be true or false");
    expect((await client.get("/api/scroll/all")).json.scrolls.length).toBe(before);
    const feed = (await client.post("/api/scroll/create", { name: "Good", type: "feed", feedConfig: { replies: true } })).json.scroll;
    const edit = await client.patch(`/api/scroll/${feed._id}`, { feedConfig: { replies: 1 } });
    expect(edit.status).toBe(400);
    expect((await client.get(`/api/scroll/${feed._id}`)).json.scroll.feedConfig.replies).toBe(true);
  });
});
