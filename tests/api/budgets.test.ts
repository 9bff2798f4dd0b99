// Performance budgets that are deterministic (issue: performance): D1 round trips per request and
// rows read per 20-echo page at any depth, read from the Server-Timing header the test server
// sends (EXPOSE_D1_STATS=1). Throughput stays out of CI; `npm run bench` measures it.
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, Client, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MAX_ROUND_TRIPS = 2;
const MAX_ROWS_PER_PAGE = 200;

async function measure(client: Client, path: string) {
  const res = await fetch(BASE_URL + path, { headers: { Cookie: client.cookie }, redirect: "manual" });
  const timing = res.headers.get("server-timing") ?? "";
  const m = /rt=(\d+) rows=(\d+)/.exec(timing);
  if (!m) throw new Error(`no D1 stats on ${path}: ${timing}`);
  const body = res.headers.get("content-type")?.includes("json") ? ((await res.json()) as Json) : (await res.text(), null);
  return { status: res.status, roundTrips: Number(m[1]), rowsRead: Number(m[2]), body };
}

let reader: Client;
let tag: string;
let feedId: string;
let curationId: string;
let likedFeedId: string;
const shapeIds: Record<string, string> = {};
let readerId: string;
let authorId: string;
const paths: string[] = [];

beforeAll(async () => {
  tag = `budget${Date.now().toString(36)}`;
  const authors = await Promise.all([signedUp("ba"), signedUp("bb"), signedUp("bc")]);
  authorId = authors[0]!.user._id;
  const ids: string[] = [];
  for (const { client } of authors) {
    for (let i = 0; i < 70; i++) {
      const res = await client.post("/api/echo/post", { content: `budget ${i}`, tags: [tag, i % 2 ? "odd" : "even"] });
      ids.push(res.json.echo._id);
    }
  }
  const r = await signedUp("br");
  reader = r.client;
  readerId = r.user._id;
  for (const id of ids.slice(0, 60)) await reader.post(`/api/echo/like/${id}`);
  const feed = await reader.post("/api/scroll/create", { name: "budget feed", type: "feed", feedConfig: { includedTags: [tag] } });
  feedId = feed.json.scroll._id;
  const liked = await reader.post("/api/scroll/create", {
    name: "budget heavy",
    type: "feed",
    feedConfig: { includedTags: [tag, "even"], tagMatchType: "all", excludedTags: ["x1", "x2", "x3"], excludeLikedEchos: true, sortBy: "mostLiked", sortTimeRange: "1year" },
  });
  likedFeedId = liked.json.scroll._id;
  // more rule shapes, each read through the engine's streams (docs/decisions/008-feed-engine.md)
  const shapes: [string, Record<string, unknown>][] = [
    // seven streams (two merge groups), half the candidates excluded
    ["anyMany", { includedTags: [tag, "nope1", "nope2", "nope3", "nope4", "nope5", "nope6"], excludedTags: ["odd"] }],
    ["authorsNewest", { authors: authors.map((a) => a.user._id) }],
    ["authorsLiked", { authors: authors.map((a) => a.user._id), sortBy: "mostLiked" }],
    ["tagOldestHideLiked", { includedTags: [tag], sortBy: "oldestFirst", excludeLikedEchos: true }],
    ["allOfTwo", { includedTags: [tag, "even"], tagMatchType: "all" }],
  ];
  for (const [key, feedConfig] of shapes) {
    const res = await reader.post("/api/scroll/create", { name: `budget ${key}`, type: "feed", feedConfig });
    shapeIds[key] = res.json.scroll._id;
  }
  const cur = await reader.post("/api/scroll/create", { name: "budget curation", type: "curation" });
  curationId = cur.json.scroll._id;
  for (const id of ids.slice(0, 50)) await reader.post(`/api/scroll/${curationId}/add-echo`, { echoId: id });
  paths.push(
    "/",
    "/new",
    "/settings",
    "/scrolls",
    "/community",
    "/browse/tags",
    "/browse/popular",
    "/profile",
    `/user/${readerId}`,
    `/tag/${tag}`,
    `/scroll/${feedId}`,
    `/scroll/${curationId}`,
    `/echo/${ids[0]}`,
    "/api/auth/me",
    "/api/scroll/all",
    `/api/scroll/${feedId}`,
    "/api/community/tags?limit=8",
    "/api/community/echos/popular?limit=3",
    "/api/community/scrolls/public/feed?limit=4",
    `/api/profile/user/${readerId}`,
    `/api/profile/user/${readerId}/echos`,
    `/api/profile/user/${readerId}/scrolls`,
    "/api/search/users?q=b",
  );
}, 120_000);

describe("round trips per request", () => {
  it(`every page load and GET /api call costs at most ${MAX_ROUND_TRIPS} D1 round trips`, async () => {
    const over: string[] = [];
    for (const path of paths) {
      const m = await measure(reader, path);
      expect(m.status, path).toBeLessThan(400);
      if (m.roundTrips > MAX_ROUND_TRIPS) over.push(`${path}: ${m.roundTrips}`);
    }
    expect(over).toEqual([]);
  });
});

describe(`rows read per 20-echo page, at any depth (≤ ${MAX_ROWS_PER_PAGE})`, () => {
  const walk = async (first: string, pages: number) => {
    const seen: { page: number; rows: number; rt: number }[] = [];
    let url = first;
    for (let page = 1; page <= pages; page++) {
      const m = await measure(reader, url);
      expect(m.status).toBe(200);
      seen.push({ page, rows: m.rowsRead, rt: m.roundTrips });
      const next = m.body?.pagination?.nextCursor;
      if (!next) break;
      url = `${first}${first.includes("?") ? "&" : "?"}page=${page + 1}&cursor=${next}`;
    }
    return seen;
  };

  it.each([
    ["all echos", () => "/api/echo/all?limit=20"],
    ["one author", () => `/api/profile/user/${authorId}/echos?limit=20`],
    ["tag, newest", () => `/api/echo/tag/${tag}?limit=20`],
    ["tag, oldest", () => `/api/echo/tag/${tag}?limit=20&orderBy=oldest`],
    ["tag, most liked this month", () => `/api/echo/tag/${tag}?limit=20&orderBy=likes&timeframe=1month`],
    ["feed: include one tag", () => `/api/scroll/${feedId}/echos?limit=20`],
    ["feed: any of 7 tags, exclusion", () => `/api/scroll/${shapeIds.anyMany}/echos?limit=20`],
    ["feed: 3 authors, newest", () => `/api/scroll/${shapeIds.authorsNewest}/echos?limit=20`],
    ["feed: 3 authors, most liked", () => `/api/scroll/${shapeIds.authorsLiked}/echos?limit=20`],
    ["feed: one tag, oldest, hide-liked", () => `/api/scroll/${shapeIds.tagOldestHideLiked}/echos?limit=20`],
    ["feed: all of two tags", () => `/api/scroll/${shapeIds.allOfTwo}/echos?limit=20`],
    ["feed: all-of, exclusions, hide-liked, most liked over a year", () => `/api/scroll/${likedFeedId}/echos?limit=20`],
    ["curation", () => `/api/scroll/${curationId}/echos?limit=20`],
  ])("%s", async (_name, path) => {
    const pages = await walk(path(), 8);
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages) {
      expect(p.rt, `page ${p.page}`).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
      expect(p.rows, `page ${p.page}`).toBeLessThanOrEqual(MAX_ROWS_PER_PAGE);
    }
    console.warn(`${_name}: rows read per page ${pages.map((p) => p.rows).join(", ")}`);
  });
});
