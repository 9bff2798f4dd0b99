// GET /api/scroll/{id}/why/{echoId} (issue 16): whether an echo is in a scroll, and the rules it
// meets or misses, in agreement with the scroll's own echos.
import { describe, expect, it } from "vitest";
import { Client, expectErrorShape, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const uniq = () => "w" + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

async function post(client: Client, content: string, tags: string[]) {
  const res = await client.post("/api/echo/post", { content, tags });
  expect(res.status).toBe(201);
  return res.json.echo as Json;
}

async function create(client: Client, body: Json) {
  const res = await client.post("/api/scroll/create", body);
  expect(res.status, res.text).toBe(201);
  return res.json.scroll as Json;
}

const why = (client: Client, scrollId: string, echoId: string) => client.get(`/api/scroll/${scrollId}/why/${echoId}`);

describe("GET /api/scroll/{id}/why/{echoId}", () => {
  it("names each rule an echo meets or misses, and agrees with the feed's echos", async () => {
    const alice = await signedUp("wa");
    const bob = await signedUp("wb");
    const reader = await signedUp("wr");
    const [t1, t2, x] = [uniq(), uniq(), uniq()];
    const shown = await post(alice.client, "in the feed", [t1]);
    const excluded = await post(alice.client, "excluded", [t2, x]);
    const otherAuthor = await post(bob.client, "wrong author", [t1]);
    const liked = await post(alice.client, "liked by the reader", [t2]);
    const untagged = await post(alice.client, "no rule tag", ["misc"]);
    await reader.client.post(`/api/echo/like/${liked._id}`);
    const feed = await create(reader.client, {
      name: "why feed",
      type: "feed",
      feedConfig: { includedTags: [t1, t2], excludedTags: [x], authors: [alice.user._id], excludeLikedEchos: true, sortBy: "mostLiked", sortTimeRange: "1month" },
    });
    const res = await why(reader.client, feed._id, shown._id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      inFeed: true,
      reasons: [
        { rule: "includedTags", passed: true, text: `tagged #${t1} (any of #${t1}, #${t2})` },
        { rule: "excludedTags", passed: true, text: `not tagged #${x}, which this feed leaves out` },
        { rule: "authors", passed: true, text: `by @${alice.user.userName}` },
        { rule: "timeRange", passed: true, text: "posted in the last month" },
        { rule: "excludeLikedEchos", passed: true, text: "you haven't liked it" },
        { rule: "sortBy", passed: true, text: "ranked by likes: with 0 likes, it comes after every matching echo with more" },
      ],
    });
    const failed = async (echoId: string) => {
      const r = await why(reader.client, feed._id, echoId);
      expect(r.status).toBe(200);
      expect(r.json.inFeed).toBe(false);
      return r.json.reasons.filter((reason: Json) => !reason.passed);
    };
    expect(await failed(excluded._id)).toEqual([{ rule: "excludedTags", passed: false, text: `tagged #${x}, which this feed leaves out` }]);
    expect(await failed(otherAuthor._id)).toEqual([
      { rule: "authors", passed: false, text: `by @${bob.user.userName}, not one of @${alice.user.userName}` },
    ]);
    expect(await failed(liked._id)).toEqual([{ rule: "excludeLikedEchos", passed: false, text: "you liked it, and this feed hides echos you liked" }]);
    expect(await failed(untagged._id)).toEqual([{ rule: "includedTags", passed: false, text: `not tagged any of #${t1}, #${t2}` }]);
    // the same answer as the feed's own echos
    const echos = await reader.client.get(`/api/scroll/${feed._id}/echos?limit=20`);
    expect(echos.json.echos.map((e: Json) => e._id)).toEqual([shown._id]);
  });

  it("explains all-of tags and date ranges with the tags and dates involved", async () => {
    const { client } = await signedUp("wd");
    const [a, b] = [uniq(), uniq()];
    const both = await post(client, "both", [a, b]);
    const one = await post(client, "one", [a]);
    const feed = await create(client, { name: "all of", type: "feed", feedConfig: { includedTags: [a, b], tagMatchType: "all", dateRange: { startDate: "2020-01-01", endDate: "2020-12-31" } } });
    const res = await why(client, feed._id, both._id);
    expect(res.json.inFeed).toBe(false);
    expect(res.json.reasons[0]).toEqual({ rule: "includedTags", passed: true, text: `tagged #${a} and #${b} (all of #${a}, #${b})` });
    expect(res.json.reasons[1]).toMatchObject({ rule: "dateRange", passed: false });
    expect(res.json.reasons[1].text).toMatch(/^posted on \w{3} \d{1,2}, \d{4}, not between Jan 1, 2020 and Dec 31, 2020$/);
    const missing = await why(client, feed._id, one._id);
    expect(missing.json.reasons[0]).toEqual({ rule: "includedTags", passed: false, text: `not tagged #${b} (needs all of #${a}, #${b})` });
  });

  it("answers a feed with no filters and a curation", async () => {
    const { client } = await signedUp("wc");
    const echo = await post(client, "any echo", []);
    const everything = await create(client, { name: "all", type: "feed", feedConfig: {} });
    expect((await why(client, everything._id, echo._id)).json).toEqual({
      inFeed: true,
      reasons: [{ rule: "everything", passed: true, text: "this feed has no filters: it shows every echo" }],
    });
    const curation = await create(client, { name: "picked", type: "curation" });
    const out = await why(client, curation._id, echo._id);
    expect(out.json.inFeed).toBe(false);
    await client.post(`/api/scroll/${curation._id}/add-echo`, { echoId: echo._id });
    const inside = await why(client, curation._id, echo._id);
    expect(inside.json.inFeed).toBe(true);
    expect(inside.json.reasons[0]).toMatchObject({ rule: "curation", passed: true });
  });

  it("403 for someone else's private scroll, 404 for an unknown scroll or echo, 401 for a guest", async () => {
    const owner = await signedUp("wo");
    const other = await signedUp("wx");
    const echo = await post(owner.client, "private check", []);
    const privateFeed = await create(owner.client, { name: "mine only", type: "feed", isPrivate: true, feedConfig: {} });
    // the creator asks of their own private feed ("why isn't it?")
    expect((await why(owner.client, privateFeed._id, echo._id)).status).toBe(200);
    const forbidden = await why(other.client, privateFeed._id, echo._id);
    expect(forbidden.status).toBe(403);
    expectErrorShape(forbidden.json);
    const unknownScroll = await why(owner.client, echo._id, echo._id);
    expect(unknownScroll.status).toBe(404);
    expect(unknownScroll.json.message).toBe("Scroll not found");
    const unknownEcho = await why(owner.client, privateFeed._id, privateFeed._id);
    expect(unknownEcho.status).toBe(404);
    expect(unknownEcho.json.message).toBe("Echo not found");
    expect((await why(owner.client, "nope", echo._id)).status).toBe(404);
    expect((await why(owner.client, privateFeed._id, "nope")).json.message).toBe("Echo not found");
    const guest = await new Client().get(`/api/scroll/${privateFeed._id}/why/${echo._id}`);
    expect(guest.status).toBe(401);
    expectErrorShape(guest.json);
  });
});
