// GET /api/scroll/all pages by cursor (issue 13: "the scroll picker scales too"; with no
// parameters it answers up to 95 since issue 28, MY_SCROLLS_MAX: 100 followed scrolls read 205 rows): a viewer with
// 125 scrolls (55 own, 70 followed: own scrolls are capped at 60 per 10 minutes) gets them all, newest first, exactly once, a page at a time,
// and no call (nor the layout of any page) reads more than 200 rows or makes more than 2 D1 round
// trips. Rows and round trips come from the Server-Timing header (EXPOSE_D1_STATS=1).
import { beforeAll, describe, expect, it } from "vitest";
import { expectErrorShape, signedUp, timed, type Client } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MAX_ROWS = 200;
const MAX_ROUND_TRIPS = 2;

async function createMany(client: Client, count: number, prefix: string, isPrivate = false): Promise<string[]> {
  const ids: string[] = [];
  // a few at a time: sequential would be slow, all at once would flood the shared test server
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: Math.min(10, count - i) }, (_, j) =>
      client.post("/api/scroll/create", { name: `${prefix} ${i + j}`, type: (i + j) % 3 ? "feed" : "curation", isPrivate }),
    );
    for (const res of await Promise.all(batch)) {
      expect(res.status, res.text).toBe(201);
      ids.push(res.json.scroll._id);
    }
  }
  return ids;
}

let viewer: Client;
let expected: string[];

beforeAll(async () => {
  const me = await signedUp("pg");
  const other = await signedUp("pgo");
  const third = await signedUp("pgt");
  viewer = me.client;
  const own = await createMany(viewer, 55, "own");
  const theirs = [...(await createMany(other.client, 35, "theirs")), ...(await createMany(third.client, 35, "third"))];
  for (const id of theirs) expect((await viewer.post(`/api/scroll/${id}/follow`)).status).toBe(200);
  // another user's scrolls the viewer does not follow never show
  await createMany(other.client, 5, "unfollowed");
  expected = [...own, ...theirs].sort().reverse();
}, 600_000);

describe("GET /api/scroll/all by cursor", () => {
  it("pages through all 125 scrolls newest first, each once, within the row budget on every page", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/api/scroll/all?limit=12${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await timed(viewer, path);
      expect(res.status).toBe(200);
      expect(res.rows, `${path} rows read`).toBeLessThanOrEqual(MAX_ROWS);
      expect(res.roundTrips, `${path} round trips`).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
      expect(res.json!.scrolls.length).toBeLessThanOrEqual(12);
      seen.push(...res.json!.scrolls.map((s: Json) => s._id));
      cursor = res.json!.pagination.nextCursor;
      expect(res.json!.pagination.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBe(11); // 125 scrolls, 12 a page
    expect(seen).toEqual(expected);
  });

  it("without parameters answers all of them up to 95 (MY_SCROLLS_MAX) in the spec's shape; limit is capped at 95", async () => {
    const first = await timed(viewer, "/api/scroll/all");
    expect(first.status).toBe(200);
    expect(first.json!.scrolls.map((s: Json) => s._id)).toEqual(expected.slice(0, 95));
    expect(first.json!.scrolls[0]).toHaveProperty("feedConfig");
    expect(first.json!.pagination.hasMore).toBe(true);
    expect(first.rows).toBeLessThanOrEqual(MAX_ROWS);
    expect(first.roundTrips).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
    // the cursor pages beyond the first 95
    const rest = await timed(viewer, `/api/scroll/all?cursor=${encodeURIComponent(first.json!.pagination.nextCursor)}`);
    expect(rest.json!.scrolls.map((s: Json) => s._id)).toEqual(expected.slice(95));
    expect(rest.json!.pagination.nextCursor).toBeNull();
    const big = await timed(viewer, "/api/scroll/all?limit=1000");
    expect(big.json!.scrolls).toHaveLength(95);
    expect(big.json!.pagination.limit).toBe(95);
    expect(big.rows).toBeLessThanOrEqual(MAX_ROWS);
  });

  it("a cursor that is not one of ours is a 400 in the API's error shape", async () => {
    for (const bad of ["nonsense", btoa(JSON.stringify({ id: "../../x" })), btoa("[1]")]) {
      const res = await viewer.get(`/api/scroll/all?cursor=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expectErrorShape(res.json);
      expect(res.json.error).toBe("cursor is invalid");
    }
  });

  it("every page's layout reads one page of the viewer's scrolls, not all 125", async () => {
    for (const path of ["/settings", "/", "/new"]) {
      const res = await timed(viewer, path);
      expect(res.status, path).toBe(200);
      expect(res.rows, `${path} rows read`).toBeLessThanOrEqual(MAX_ROWS);
      expect(res.roundTrips, `${path} round trips`).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
    }
  });
});
