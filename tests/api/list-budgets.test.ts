// Every echo list at its largest page stays within 200 rows read (issue 28: with every echo liked by
// the viewer, "/api/echo/all?limit=100" read 306 rows, a tag page 407, a curation 408, Following
// 303 for 60 echos, search 302 at its 60; and /api/scroll/all for a viewer following 100 scrolls
// 204). Each list reads a few rows per echo (the echo, its author, the viewer's like, and the row
// that lists it), so each has its own largest page
// (LIST_MAX_LIMIT in modules/shared/pagination.ts; docs/product-notes.md "Page sizes"): asked for
// 100 or 1,000, it answers its largest page, full, within budget; the deepest page number it may jump to
// is within budget too. Rows and round trips come from Server-Timing (EXPOSE_D1_STATS=1).
import { beforeAll, describe, expect, it } from "vitest";
import { Client, signedUp, timed } from "./client";

const MAX_ROWS = 200;
// modules/shared/pagination.ts LIST_MAX_LIMIT, modules/scroll/lists.server.ts MY_SCROLLS_MAX
const MAX = { allEchos: 35, tagEchos: 29, scrollEchos: 21, following: 21, searchEchos: 30, profileEchos: 44, myScrolls: 95 };

const uniq = (p: string) => p + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

let viewer: Client;
let session: string;
let lists: { name: string; path: string; max: number; expected: number }[];

beforeAll(async () => {
  const tag = uniq("lb");
  const word = uniq("w");
  const me = await signedUp("lbv");
  viewer = me.client;
  session = viewer.cookie.split("; ").filter((c) => !c.startsWith("echo_pages")).join("; ");
  const [a, b, c] = await Promise.all([signedUp("lba"), signedUp("lbb"), signedUp("lbc")]);
  // followed first, so every post below reaches the viewer's Following timeline
  for (const who of [a, b, c]) expect((await viewer.post(`/api/profile/user/${who.user._id}/follow`)).status).toBe(200);
  // 100 echos by a (one account's posts per five minutes), 3 by b, 2 by c: all with the tag and word
  const ids: string[] = [];
  const post = async (client: Client, i: number) => {
    const res = await client.post("/api/echo/post", { content: `${word} listed echo ${i}`, tags: [tag] });
    expect(res.status, res.text).toBe(201);
    ids.push(res.json.echo._id);
  };
  for (let i = 0; i < 100; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => post(a.client, i + j)));
  for (let i = 0; i < 3; i++) await post(b.client, 100 + i);
  for (let i = 0; i < 2; i++) await post(c.client, 103 + i);
  // the viewer likes them all: a liked echo's like row is read for isLiked, the worst case
  for (let i = 0; i < ids.length; i += 15) {
    const likes = ids.slice(i, i + 15).map((id) => viewer.post(`/api/echo/like/${id}`));
    for (const res of await Promise.all(likes)) expect(res.status).toBe(200);
  }
  const curation = (await a.client.post("/api/scroll/create", { name: "Listed picks", type: "curation" })).json.scroll;
  for (let i = 0; i < ids.length; i += 15) {
    const adds = ids.slice(i, i + 15).map((id) => a.client.post(`/api/scroll/${curation._id}/add-echo`, { echoId: id }));
    for (const res of await Promise.all(adds)) expect(res.status).toBe(200);
  }
  lists = [
    { name: "all echos", path: "/api/echo/all", max: MAX.allEchos, expected: MAX.allEchos },
    { name: "all echos by tag", path: `/api/echo/all?tag=${tag}`, max: MAX.tagEchos, expected: MAX.tagEchos },
    { name: "tag page", path: `/api/echo/tag/${tag}`, max: MAX.tagEchos, expected: MAX.tagEchos },
    { name: "tag page, most liked", path: `/api/echo/tag/${tag}?orderBy=likes`, max: MAX.tagEchos, expected: MAX.tagEchos },
    { name: "Following", path: "/api/echo/following", max: MAX.following, expected: MAX.following },
    { name: "profile echos", path: `/api/profile/user/${a.user._id}/echos`, max: MAX.profileEchos, expected: MAX.profileEchos },
    { name: "all echos of one author", path: `/api/echo/all?user=${a.user._id}`, max: MAX.profileEchos, expected: MAX.profileEchos },
    { name: "curation echos", path: `/api/scroll/${curation._id}/echos`, max: MAX.scrollEchos, expected: MAX.scrollEchos },
    { name: "search", path: `/api/search/echos?q=${word}`, max: MAX.searchEchos, expected: MAX.searchEchos },
  ];
}, 600_000);

const withParams = (path: string, params: string) => `${path}${path.includes("?") ? "&" : "?"}${params}`;

describe("echo lists at their largest page", () => {
  it("limit=100 and limit=1000 answer the list's largest page, full, within 200 rows and 2 round trips", async () => {
    for (const { name, path, max, expected } of lists) {
      for (const limit of [100, 1000]) {
        const res = await timed(viewer, withParams(path, `limit=${limit}`));
        expect(res.status, `${name}: ${JSON.stringify(res.json)?.slice(0, 200)}`).toBe(200);
        console.warn(`${name} limit=${limit}: ${res.json!.echos.length} echos, ${res.rows} rows, ${res.roundTrips} round trips`);
        expect(res.json!.pagination.limit, name).toBe(max);
        expect(res.json!.echos.length, name).toBe(expected);
        expect(res.rows, `${name} rows read`).toBeLessThanOrEqual(MAX_ROWS);
        expect(res.roundTrips, `${name} round trips`).toBeLessThanOrEqual(2);
      }
    }
  });

  it("the deepest page number a list may jump to is within budget; one page deeper is a 400 naming the cursor", async () => {
    for (const { name, path, max } of lists) {
      if (name === "search") continue; // search pages only by its cursor after page 1
      // half the largest page, page 2: it skips half and lists half (a jump: no bookmark cookie)
      const half = Math.floor(max / 2);
      const jump = await new Client().get(withParams(path, `limit=${half}&page=2`), { Cookie: session });
      expect(jump.status, `${name}: ${jump.text.slice(0, 200)}`).toBe(200);
      const rows = Number(/rows=(\d+)/.exec(jump.headers.get("server-timing") ?? "")?.[1]);
      expect(rows, `${name} page 2 of ${half}`).toBeLessThanOrEqual(MAX_ROWS);
      const deeper = await new Client().get(withParams(path, `limit=${half}&page=3`), { Cookie: session });
      expect(deeper.status, `${name} page 3 of ${half}`).toBe(400);
      expect(deeper.json.message).toMatch(/cursor/);
    }
  });
});

describe("GET /api/scroll/all for a viewer following many scrolls", () => {
  it("answers its largest page (95) within 200 rows: two rows per followed scroll", { timeout: 240_000 }, async () => {
    const reader = await signedUp("lbr");
    const creators = await Promise.all([signedUp("lbs"), signedUp("lbt")]);
    // 100 public scrolls (an account creates 60 per 10 minutes), all followed
    for (const [n, creator] of creators.entries()) {
      for (let i = 0; i < 50; i += 10) {
        const made = await Promise.all(
          Array.from({ length: 10 }, (_, j) => creator.client.post("/api/scroll/create", { name: `followed ${n}-${i + j}`, type: j % 2 ? "feed" : "curation" })),
        );
        for (const res of made) {
          expect(res.status, res.text).toBe(201);
          expect((await reader.client.post(`/api/scroll/${res.json.scroll._id}/follow`)).status).toBe(200);
        }
      }
    }
    for (const path of ["/api/scroll/all", "/api/scroll/all?limit=100", "/api/scroll/all?limit=1000"]) {
      const res = await timed(reader.client, path);
      expect(res.status).toBe(200);
      console.warn(`${path}: ${res.json!.scrolls.length} scrolls, ${res.rows} rows`);
      expect(res.json!.scrolls).toHaveLength(MAX.myScrolls);
      expect(res.json!.pagination.hasMore).toBe(true);
      expect(res.rows, `${path} rows read`).toBeLessThanOrEqual(MAX_ROWS);
      expect(res.roundTrips).toBeLessThanOrEqual(2);
    }
    const rest = await timed(reader.client, `/api/scroll/all?cursor=${encodeURIComponent((await reader.client.get("/api/scroll/all")).json.pagination.nextCursor)}`);
    expect(rest.json!.scrolls).toHaveLength(100 - MAX.myScrolls);
    expect(rest.json!.pagination.nextCursor).toBeNull();
  });
});
