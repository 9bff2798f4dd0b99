// Page numbers (product decisions "Pagination", issues 27/28): a client that pages by number, one
// page after the other (the spec's own client), is served at any depth within the row budget —
// each numbered page continues from the cursor the page before it ended on (the `echo_pages`
// cookie) — and a jump straight to a deep page is served within budget or answers 400 naming the
// cursor. Never an OFFSET scan.
import { describe, expect, it } from "vitest";
import { Client, cookieValue, d1Cost, expectErrorShape, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MAX_ROWS = 200;
const uniq = () => "p" + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

/** Every page by number, in order, until hasMore is false; each page's cost checked. */
async function pageByNumber(client: Client, path: string, limit: number, maxPages = 100) {
  const ids: string[] = [];
  const costs: { page: number; rows: number; roundTrips: number }[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await client.get(`${path}${sep}page=${page}&limit=${limit}`);
    expect(res.status, `${path} page ${page}: ${res.text}`).toBe(200);
    costs.push({ page, ...d1Cost(res) });
    expect(res.json.pagination.page).toBe(page);
    const echos = res.json.echos as Json[];
    if (res.json.pagination.hasMore) expect(echos.length, `page ${page} is full`).toBe(limit);
    ids.push(...echos.map((e) => e._id));
    if (!res.json.pagination.hasMore) break;
  }
  return { ids, costs };
}

describe("page numbers at any depth", () => {
  it("a tag page, a feed, a curation and a profile paged by number to their ends: every echo once, in order, each page within budget", async () => {
    const tag = uniq();
    const { client, user } = await signedUp("pn");
    // 130 echos by five authors (one account may post 100 in five minutes), the first one ours
    const authors = [client, ...(await Promise.all([1, 2, 3, 4].map(() => signedUp("pm")))).map((a) => a.client)];
    const posted: string[] = [];
    const mine: string[] = [];
    for (let i = 0; i < 130; i++) {
      const author = authors[i % authors.length]!;
      const res = await author.post("/api/echo/post", { content: `numbered ${i}`, tags: [tag] });
      expect(res.status).toBe(201);
      posted.unshift(res.json.echo._id);
      if (author === client) mine.unshift(res.json.echo._id);
    }
    const feed = (await client.post("/api/scroll/create", { name: "Numbered", type: "feed", feedConfig: { includedTags: [tag] } })).json.scroll;
    const curation = (await client.post("/api/scroll/create", { name: "Numbered picks", type: "curation" })).json.scroll;
    for (const id of [...posted].reverse().slice(0, 70)) expect((await client.post(`/api/scroll/${curation._id}/add-echo`, { echoId: id })).status).toBe(200);
    const lists: [string, string, string[]][] = [
      ["tag", `/api/echo/tag/${tag}`, posted],
      ["all by tag", `/api/echo/all?tag=${tag}`, posted],
      ["feed", `/api/scroll/${feed._id}/echos`, posted],
      ["curation (newest added first)", `/api/scroll/${curation._id}/echos`, posted.slice(-70)],
      ["profile", `/api/profile/user/${user._id}/echos`, mine],
    ];
    for (const [name, path, expected] of lists) {
      const { ids, costs } = await pageByNumber(client, path, name === "profile" ? 3 : 10);
      expect(ids, name).toEqual(expected);
      const worst = Math.max(...costs.map((c) => c.rows));
      console.warn(`${name}: ${costs.length} pages by number, rows read max ${worst}, round trips max ${Math.max(...costs.map((c) => c.roundTrips))}`);
      expect(worst, name).toBeLessThanOrEqual(MAX_ROWS);
    }
  });

  it("a jump to a deep page is refused with 400 naming the cursor, and reads nothing; a shallow jump is served", async () => {
    const { client } = await signedUp("pj");
    for (const path of ["/api/echo/all?limit=100&page=1000000", "/api/echo/all?limit=20&page=50", "/api/echo/tag/misc?page=1000", "/api/echo/following?page=10000&limit=100"]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(400);
      expectErrorShape(res.json);
      expect(res.json.message).toMatch(/cursor/);
      expect(d1Cost(res).rows, path).toBeLessThanOrEqual(MAX_ROWS);
    }
    // the deepest jump of All echos at 5 a page: offset + limit within its largest page (35)
    const jump = await client.get("/api/echo/all?limit=5&page=7");
    expect(jump.status).toBe(200);
    expect(d1Cost(jump).rows).toBeLessThanOrEqual(MAX_ROWS);
  });

  it("a page asked again (a retry, an infinite list firing twice) is the same page, at any depth, and the next goes on below it", async () => {
    const tag = uniq();
    const authors = await Promise.all([0, 1].map(() => signedUp("pr")));
    const posted: string[] = [];
    for (let i = 0; i < 80; i++) posted.unshift((await authors[i % 2]!.client.post("/api/echo/post", { content: `again ${i}`, tags: [tag] })).json.echo._id);
    const { client } = await signedUp("pq");
    const path = (page: number) => `/api/echo/tag/${tag}?page=${page}&limit=5`;
    const ids = (res: { json: Json }) => (res.json.echos as Json[]).map((e) => e._id);
    for (let page = 1; page <= 14; page++) expect((await client.get(path(page))).status).toBe(200);
    // page 14 is 65 echos deep: as a jump it would be refused (400); asked again, it is page 14
    const again = await client.get(path(14));
    expect(again.status, again.text).toBe(200);
    expect(ids(again)).toEqual(posted.slice(65, 70));
    expect(d1Cost(again).rows).toBeLessThanOrEqual(MAX_ROWS);
    // others post meanwhile: asked once more, the same echos (an OFFSET would shift them), then on
    for (let i = 0; i < 3; i++) await authors[0]!.client.post("/api/echo/post", { content: `newer ${i}`, tags: [tag] });
    expect(ids(await client.get(path(14)))).toEqual(posted.slice(65, 70));
    expect(ids(await client.get(path(15)))).toEqual(posted.slice(70, 75));
  });

  it("a numbered page continues only the list it came from: another list, or another limit, does not take its cursor", async () => {
    const tagA = uniq();
    const tagB = uniq();
    const { client } = await signedUp("pk");
    for (let i = 0; i < 12; i++) {
      await client.post("/api/echo/post", { content: `a ${i}`, tags: [tagA] });
      await client.post("/api/echo/post", { content: `b ${i}`, tags: [tagB] });
    }
    const a1 = await client.get(`/api/echo/tag/${tagA}?page=1&limit=5`);
    const b2 = await client.get(`/api/echo/tag/${tagB}?page=2&limit=5`);
    const b2fresh = await new Client().get(`/api/echo/tag/${tagB}?page=2&limit=5`, { Cookie: client.cookie.split("; ").filter((c) => !c.startsWith("echo_pages")).join("; ") });
    expect(a1.status).toBe(200);
    expect(b2.json.echos.map((e: Json) => e._id)).toEqual(b2fresh.json.echos.map((e: Json) => e._id));
    expect(b2.json.echos.every((e: Json) => e.tags.some((t: Json) => t.name === tagB))).toBe(true);
  });

  it("a malformed or forged echo_pages cookie is no bookmark: the page answers as without one, never a 500", async () => {
    const tag = uniq();
    const { client } = await signedUp("pl");
    for (let i = 0; i < 12; i++) await client.post("/api/echo/post", { content: `c ${i}`, tags: [tag] });
    const session = client.cookie.split("; ").filter((c) => !c.startsWith("echo_pages")).join("; ");
    const path = `/api/echo/tag/${tag}?page=2&limit=5`;
    const plain = await new Client().get(path, { Cookie: session });
    expect(plain.status).toBe(200);
    const forged = cookieValue([["zzzz", "5", 1, "not-a-cursor"]]);
    for (const bad of ["%E0%A4%A", "bm90IGpzb24", cookieValue({ not: "a list" }), cookieValue([[1, 2, 3]]), "x".repeat(5000), forged]) {
      const res = await new Client().get(path, { Cookie: `${session}; echo_pages=${bad}` });
      expect(res.status, bad.slice(0, 40)).toBe(200);
      expect(res.json.echos.map((e: Json) => e._id)).toEqual(plain.json.echos.map((e: Json) => e._id));
    }
  });
});
