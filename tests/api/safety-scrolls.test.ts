// Blocks and mutes in scroll lists, "why" and the preview (issue 32, decisions 026 and 028): a
// blocked creator's scrolls leave the community lists, their profile and the sidebar both ways
// (and a muted creator's the muter's); "why" has no echo of a hidden author to explain (404); a
// preview's match count does not count hidden authors' echos.
import { beforeAll, describe, expect, it } from "vitest";
import { signedUp, timed, untilPage } from "./client";

type Person = Awaited<ReturnType<typeof signedUp>>;
let viewer: Person;
let blocked: Person;
let blocker: Person;
let seen: Person;
let tag: string;
const scrollOf: Record<string, string> = {};

const uniq = (p: string) => p + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

beforeAll(async () => {
  tag = uniq("ssc");
  [viewer, blocked, blocker, seen] = (await Promise.all(Array.from({ length: 4 }, () => signedUp("ssc")))) as [Person, Person, Person, Person];
  for (const who of [blocked, blocker, seen]) {
    const res = await who.client.post("/api/scroll/create", { name: `feed of ${who.user.userName}`, type: "feed", feedConfig: { includedTags: [tag] } });
    expect(res.status, res.text).toBe(201);
    scrollOf[who.user._id] = res.json.scroll._id;
    // the viewer follows each one's feed first: the sidebar must leave the hidden ones out
    expect((await viewer.client.post(`/api/scroll/${res.json.scroll._id}/follow`)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await who.client.post("/api/echo/post", { content: `scroll echo ${i}`, tags: [tag] })).status).toBe(201);
  }
  expect((await viewer.client.post(`/api/profile/user/${blocked.user._id}/block`)).status).toBe(200);
  expect((await blocker.client.post(`/api/profile/user/${viewer.user._id}/block`)).status).toBe(200);
}, 600_000);

describe("scroll lists leave out the scrolls of hidden creators", () => {
  it("community's newest feeds, both ways", async () => {
    const res = await timed(viewer.client, "/api/community/scrolls/public/feed?limit=80");
    const ids = (res.json as unknown as { _id: string }[]).map((s) => s._id);
    expect(ids).toContain(scrollOf[seen.user._id]);
    expect(ids).not.toContain(scrollOf[blocked.user._id]);
    expect(ids).not.toContain(scrollOf[blocker.user._id]);
    expect(res.rows).toBeLessThanOrEqual(200);
    const theirs = (await blocked.client.get("/api/community/scrolls/public/feed?limit=80")).json as { creator: { _id: string } }[];
    expect(theirs.some((s) => s.creator._id === viewer.user._id)).toBe(false);
  });

  it("a profile's scrolls, both ways", async () => {
    for (const who of [blocked, blocker]) {
      expect((await viewer.client.get(`/api/profile/user/${who.user._id}/scrolls?type=created`)).json.scrolls).toEqual([]);
    }
    expect((await viewer.client.get(`/api/profile/user/${seen.user._id}/scrolls?type=created`)).json.scrolls).toHaveLength(1);
  });

  it("the sidebar (one's scrolls and those one follows)", async () => {
    const res = await timed(viewer.client, "/api/scroll/all");
    const ids = (res.json!.scrolls as { _id: string }[]).map((s) => s._id);
    expect(ids).toEqual([scrollOf[seen.user._id]]);
  });
});

describe("why and preview", () => {
  it("why: a hidden author's echo is not found; a seen one is explained", async () => {
    const feed = scrollOf[seen.user._id]!;
    // the seen author's 3 echos reach the feed's index through the change stream (seconds behind
    // the posts on a busy machine: a fresh-clone CI run at load 18 read the page empty)
    const page = await untilPage(viewer.client, `/api/scroll/${feed}/echos?limit=20`, (p) => p.echos.length === 3);
    expect(page.json.echos.length).toBe(3);
    expect(page.json.echos.every((e: { author: { _id: string } }) => e.author._id === seen.user._id)).toBe(true);
    const mine = page.json.echos[0]._id;
    expect((await viewer.client.get(`/api/scroll/${feed}/why/${mine}`)).json.inFeed).toBe(true);
    const hiddenEcho = (await blocked.client.get(`/api/profile/user/${blocked.user._id}/echos?limit=1`)).json.echos[0]._id;
    const why = await viewer.client.get(`/api/scroll/${feed}/why/${hiddenEcho}`);
    expect(why.status).toBe(404);
  });

  it("preview: the match count leaves out hidden authors' echos", async () => {
    const res = await viewer.client.post("/api/scroll/preview", { feedConfig: { includedTags: [tag] } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.echos).toHaveLength(3);
    expect(res.json.matchCount).toBe(3);
    expect(res.json.matchCountExact).toBe(true);
    const plain = await signedUp("ssc");
    expect((await plain.client.post("/api/scroll/preview", { feedConfig: { includedTags: [tag] } })).json.matchCount).toBe(9);
  });
});
