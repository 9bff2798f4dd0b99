// POST /api/scroll/{id}/fork (issue 16): the viewer's own feed with the same rules, "forked from"
// on it and an exact fork count on the original, through deletes of either side.
import { describe, expect, it } from "vitest";
import { BASE_URL, Client, expectErrorShape, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function create(client: Client, body: Json) {
  const res = await client.post("/api/scroll/create", body);
  expect(res.status, res.text).toBe(201);
  return res.json.scroll as Json;
}

const forkCount = async (client: Client, id: string) => (await client.get(`/api/scroll/${id}`)).json.scroll.forkCount;

describe("POST /api/scroll/{id}/fork", () => {
  it("creates the viewer's feed with the same rules, named '<name> (fork)', and counts it on the original", async () => {
    const owner = await signedUp("fo");
    const reader = await signedUp("fr");
    const original = await create(owner.client, {
      name: "Rust and Go",
      description: "systems",
      type: "feed",
      feedConfig: { includedTags: ["rust", "go"], excludedTags: ["spam"], authors: [owner.user._id], sortBy: "mostLiked", sortTimeRange: "1month", excludeLikedEchos: true, dateRange: { startDate: "2026-01-01", endDate: null } },
    });
    expect(original.forkCount).toBe(0);
    expect(original.forkedFrom).toBeNull();
    const res = await reader.client.post(`/api/scroll/${original._id}/fork`);
    expect(res.status).toBe(201);
    const fork = res.json.scroll;
    expect(fork).toMatchObject({
      name: "Rust and Go (fork)",
      description: "systems",
      type: "feed",
      // private until its creator shares it: a copy for oneself does not go to Discover (issue 29)
      isPrivate: true,
      creator: { _id: reader.user._id, userName: reader.user.userName },
      forkCount: 0,
      forkedFrom: { _id: original._id, name: "Rust and Go", creator: { _id: owner.user._id, userName: owner.user.userName } },
      feedConfig: original.feedConfig,
    });
    expect(fork._id).not.toBe(original._id);
    // one batch after the session check (Server-Timing, EXPOSE_D1_STATS=1)
    const timed = await fetch(`${BASE_URL}/api/scroll/${original._id}/fork`, { method: "POST", headers: { Cookie: reader.client.cookie } });
    expect(timed.status).toBe(201);
    expect(Number(/rt=(\d+)/.exec(timed.headers.get("server-timing") ?? "")?.[1])).toBeLessThanOrEqual(2);
    const again = ((await timed.json()) as Json).scroll;
    // the reader's second fork of it is told apart by its name (issue 29)
    expect(again.name).toBe("Rust and Go (fork 2)");
    await reader.client.delete(`/api/scroll/${again._id}`);
    expect(await forkCount(owner.client, original._id)).toBe(1);
    // a second fork, then deleting one: the count stays exact
    const second = await owner.client.post(`/api/scroll/${original._id}/fork`);
    expect(second.status).toBe(201);
    expect(await forkCount(owner.client, original._id)).toBe(2);
    expect((await reader.client.delete(`/api/scroll/${fork._id}`)).status).toBe(200);
    expect(await forkCount(owner.client, original._id)).toBe(1);
    // the fork is the reader's own: it is in their scrolls and they can edit it
    const edited = await owner.client.request("PATCH", `/api/scroll/${second.json.scroll._id}`, { name: "mine now" });
    expect(edited.status).toBe(200);
  });

  it("a second fork of a long name is cut to fit its longer suffix; a fork is in no community list", async () => {
    const owner = await signedUp("fm");
    const reader = await signedUp("fn");
    const long = "é".repeat(50);
    const original = await create(owner.client, { name: long, type: "feed", feedConfig: { includedTags: ["x"] } });
    const first = (await reader.client.post(`/api/scroll/${original._id}/fork`)).json.scroll;
    const second = (await reader.client.post(`/api/scroll/${original._id}/fork`)).json.scroll;
    expect([first.name, second.name]).toEqual(["é".repeat(43) + " (fork)", "é".repeat(41) + " (fork 2)"]);
    expect((await reader.client.get(`/api/scroll/${second._id}`)).json.scroll.name).toBe("é".repeat(41) + " (fork 2)");
    const listed = await owner.client.get("/api/community/scrolls/public/feed?limit=100");
    expect(listed.json.map((s: Json) => s._id)).not.toContain(first._id);
    // someone else's fork is theirs to read only
    expect((await owner.client.get(`/api/scroll/${first._id}`)).status).toBe(403);
  });

  it("cuts a long name to the limit, and survives the original's deletion", async () => {
    const owner = await signedUp("fl");
    const reader = await signedUp("fs");
    const long = "é".repeat(50);
    const original = await create(owner.client, { name: long, type: "feed", feedConfig: { includedTags: ["x"] } });
    const fork = (await reader.client.post(`/api/scroll/${original._id}/fork`)).json.scroll;
    expect(fork.name).toBe("é".repeat(43) + " (fork)");
    expect([...fork.name].length).toBe(50);
    // a name of characters made of two code points each: cut by characters, not code points
    const combined = "e\u0301".repeat(30);
    const decomposed = await create(owner.client, { name: combined, type: "feed", feedConfig: {} });
    const forkedCombined = await reader.client.post(`/api/scroll/${decomposed._id}/fork`);
    expect(forkedCombined.json.scroll.name).toBe(`${combined} (fork)`);
    expect((await reader.client.get(`/api/scroll/${forkedCombined.json.scroll._id}`)).json.scroll.name).toBe(`${combined} (fork)`);
    expect((await owner.client.delete(`/api/scroll/${original._id}`)).status).toBe(200);
    const after = await reader.client.get(`/api/scroll/${fork._id}`);
    expect(after.status).toBe(200);
    expect(after.json.scroll.forkedFrom).toBeNull();
    expect(after.json.scroll.feedConfig.includedTags).toEqual([{ _id: "x", name: "x" }]);
    expect((await reader.client.get(`/api/scroll/${fork._id}/echos`)).status).toBe(200);
    // deleting the orphaned fork changes no counter (and does not fail)
    expect((await reader.client.delete(`/api/scroll/${fork._id}`)).status).toBe(200);
  });

  it("hides a now-private original from the fork's viewer", async () => {
    const owner = await signedUp("fp");
    const reader = await signedUp("fq");
    const original = await create(owner.client, { name: "soon private", type: "feed", feedConfig: {} });
    const fork = (await reader.client.post(`/api/scroll/${original._id}/fork`)).json.scroll;
    await owner.client.request("PATCH", `/api/scroll/${original._id}`, { isPrivate: true });
    expect((await reader.client.get(`/api/scroll/${fork._id}`)).json.scroll.forkedFrom).toBeNull();
  });

  it("403 for someone else's private feed, 400 for a curation, 404 unknown, 401 for a guest; none writes", async () => {
    const owner = await signedUp("fx");
    const reader = await signedUp("fy");
    const secret = await create(owner.client, { name: "secret", type: "feed", isPrivate: true, feedConfig: {} });
    const curation = await create(owner.client, { name: "picked", type: "curation" });
    const before = (await reader.client.get("/api/scroll/all")).json.scrolls.length;
    const forbidden = await reader.client.post(`/api/scroll/${secret._id}/fork`);
    expect(forbidden.status).toBe(403);
    expectErrorShape(forbidden.json);
    const notFeed = await reader.client.post(`/api/scroll/${curation._id}/fork`);
    expect(notFeed.status).toBe(400);
    expect(notFeed.json.message).toBe("Only feed scrolls can be forked");
    expect((await reader.client.post(`/api/scroll/${reader.user._id}/fork`)).status).toBe(404);
    expect((await reader.client.post(`/api/scroll/nope/fork`)).status).toBe(404);
    const guest = await new Client().post(`/api/scroll/${secret._id}/fork`);
    expect(guest.status).toBe(401);
    expectErrorShape(guest.json);
    expect((await reader.client.get(`/api/scroll/${secret._id}/fork`)).status).toBe(405);
    expect((await reader.client.get("/api/scroll/all")).json.scrolls.length).toBe(before);
    expect(await forkCount(owner.client, secret._id)).toBe(0);
    // its creator may fork their own private feed
    expect((await owner.client.post(`/api/scroll/${secret._id}/fork`)).status).toBe(201);
  });
});
