// POST /api/scroll/preview (issue 16): a rule's first page and match count before it is saved.
import { describe, expect, it } from "vitest";
import { Client, expectErrorShape, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const uniq = () => "p" + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

async function post(client: Client, content: string, tags: string[]) {
  const res = await client.post("/api/echo/post", { content, tags });
  expect(res.status).toBe(201);
  return res.json.echo as Json;
}

const preview = (client: Client, feedConfig: unknown, query = "") => client.post(`/api/scroll/preview${query}`, { feedConfig });

describe("POST /api/scroll/preview", () => {
  it("shows the feed's first page and an exact count, and saves nothing", async () => {
    const { client } = await signedUp("pv");
    const tag = uniq();
    const posted: Json[] = [];
    for (let i = 0; i < 20; i++) posted.push(await post(client, `preview ${i}`, [tag, i % 3 === 0 ? "skipme" : "keep"]));
    const before = await client.get("/api/scroll/all");
    const feedConfig = { includedTags: [tag], excludedTags: ["skipme"], sortBy: "oldestFirst" };
    const res = await preview(client, feedConfig);
    expect(res.status).toBe(200);
    const kept = posted.filter((_, i) => i % 3 !== 0);
    expect(res.json.echos.map((e: Json) => e._id)).toEqual(kept.slice(0, 10).map((e) => e._id));
    expect(res.json).toMatchObject({ matchCount: kept.length, matchCountExact: true });
    expect(res.json.pagination).toMatchObject({ page: 1, limit: 10, hasMore: true });
    // the next page by cursor is the rest of the feed
    const next = await preview(client, feedConfig, `?cursor=${res.json.pagination.nextCursor}&page=2`);
    expect(next.json.echos.map((e: Json) => e._id)).toEqual(kept.slice(10).map((e) => e._id));
    expect(next.json.pagination.hasMore).toBe(false);
    // the same rule saved shows the same echos
    const saved = await client.post("/api/scroll/create", { name: "saved", type: "feed", feedConfig });
    const feed = await client.get(`/api/scroll/${saved.json.scroll._id}/echos?limit=10`);
    expect(feed.json.echos.map((e: Json) => e._id)).toEqual(res.json.echos.map((e: Json) => e._id));
    // preview wrote nothing: the only new scroll is the one created above
    const after = await client.get("/api/scroll/all");
    expect(after.json.scrolls.length).toBe(before.json.scrolls.length + 1);
  });

  it("counts a one-tag rule exactly from the tag's counter, beyond the page", async () => {
    const { client } = await signedUp("pc");
    const tag = uniq();
    for (let i = 0; i < 24; i++) await post(client, `count ${i}`, [tag]);
    const res = await preview(client, { includedTags: [tag] });
    expect(res.json).toMatchObject({ matchCount: 24, matchCountExact: true });
    expect(res.json.echos).toHaveLength(10);
  });

  it("gives a lower bound (matchCountExact false) when the bounded scan cannot see every match", async () => {
    const { client } = await signedUp("pl");
    const tag = uniq();
    for (let i = 0; i < 90; i++) await post(client, `many ${i}`, [tag, "kept"]);
    // the exclusion is tested on every entry: the counters only bound the count from above
    const res = await preview(client, { includedTags: [tag], excludedTags: ["nothere"] });
    expect(res.status).toBe(200);
    expect(res.json.matchCountExact).toBe(false);
    expect(res.json.matchCount).toBeGreaterThanOrEqual(10);
    expect(res.json.matchCount).toBeLessThan(90);
  }, 600_000);

  it("answers a rule that can match nothing with 0, exactly", async () => {
    const { client } = await signedUp("pz");
    const res = await preview(client, { includedTags: ["a1"], excludedTags: ["a1"] });
    expect(res.json).toMatchObject({ echos: [], matchCount: 0, matchCountExact: true });
  });

  it("refuses an invalid rule with create's status and message, and a guest with 401", async () => {
    const { client, user } = await signedUp("pe");
    const bad: unknown[] = [
      { sortBy: "sideways" },
      { includedTags: "tech" },
      { includedTags: ["has space!"] },
      { authors: ["not-an-id"] },
      { authors: [user._id.slice(0, 10) + "0".repeat(16)] },
      { dateRange: { startDate: "2026-02-01", endDate: "2026-01-01" } },
      { dateRange: { startDate: "yesterday-ish" } },
      { includedTags: Array.from({ length: 26 }, (_, i) => `t${i}`) },
      "not an object",
    ];
    for (const feedConfig of bad) {
      const created = await client.post("/api/scroll/create", { name: "x", type: "feed", feedConfig });
      const res = await preview(client, feedConfig);
      expect(res.status, JSON.stringify(feedConfig)).toBe(400);
      expectErrorShape(res.json);
      expect(res.json.message).toBe(created.json.message);
      expect(created.status).toBe(400);
    }
    expect((await client.request("POST", "/api/scroll/preview", "{not json")).status).toBe(400);
    const guest = await new Client().post("/api/scroll/preview", { feedConfig: {} });
    expect(guest.status).toBe(401);
    expectErrorShape(guest.json);
    expect((await client.get("/api/scroll/preview")).status).toBe(405);
  });
});
