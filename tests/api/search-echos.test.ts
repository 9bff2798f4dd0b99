// GET /api/search/echos (issue 18): words, #tags and @users over real HTTP, ranking, paging by
// cursor, the index following deletes, and hostile queries (a clear 400 or a plain result, never
// a 500). Each test searches words unique to this run, so the shared store does not interfere.
import { describe, expect, it } from "vitest";
import { Client, expectErrorShape, signedUp } from "./client";

type Hit = { _id: string; content: string; author: { userName: string }; highlights: { content: [number, number][]; tags: string[] } };

let n = 0;
/** A word no other echo has: letters and digits only, so it is one search token. */
const word = (prefix: string) => `${prefix}${Date.now().toString(36)}${(n++).toString(36)}`;
const path = (q: string, extra = "") => `/api/search/echos?q=${encodeURIComponent(q)}${extra}`;

async function search(client: Client, q: string, extra = "") {
  const res = await client.get(path(q, extra));
  expect(res.status, res.text).toBe(200);
  return res.json as { echos: Hit[]; pagination: { page: number; limit: number; hasMore: boolean; nextCursor: string | null; total: number } };
}
const contents = async (client: Client, q: string) => (await search(client, q)).echos.map((e) => e.content);

async function post(client: Client, content: string, tags: string[] = []) {
  const res = await client.post("/api/echo/post", { content, tags });
  expect(res.status, res.text).toBe(201);
  return res.json.echo as { _id: string };
}

describe("search echos", () => {
  it("finds an echo by a word, in the same echo object as other lists, with the word's place in the text", async () => {
    const { client } = await signedUp("sw");
    const w = word("tea");
    const echo = await post(client, `Morning ${w.toUpperCase()} <b>not html</b>, then ${w} again`, ["drinks"]);
    const page = await search(client, w);
    expect(page.echos.map((e) => e._id)).toEqual([echo._id]);
    const hit = page.echos[0]!;
    const { highlights, ...rest } = hit;
    expect(rest).toEqual((await client.get(`/api/echo/echo/${echo._id}`)).json.echo);
    expect(highlights.content.map(([s, e]) => hit.content.slice(s, e))).toEqual([w.toUpperCase(), w]);
    expect(highlights.tags).toEqual([]);
    expect(page.pagination).toMatchObject({ page: 1, limit: 20, hasMore: false, nextCursor: null, total: 1 });
    // unauthenticated: 401 in the error shape
    const guest = await new Client().get(path(w));
    expect(guest.status).toBe(401);
    expectErrorShape(guest.json);
  });

  it("#tag finds echos carrying the tag; the bare word also finds it in text", async () => {
    const { client } = await signedUp("st");
    const t = word("tg");
    const tagged = await post(client, "tagged, no word here", [t, `${t}-x`]);
    const inText = await post(client, `the word ${t} in text, and #${t}x`);
    expect((await search(client, `#${t}`)).echos.map((e) => e._id)).toEqual([tagged._id]);
    expect((await search(client, `#${t}`)).echos[0]!.highlights.tags).toEqual([t]);
    expect((await search(client, `#${t}-x`)).echos.map((e) => e._id)).toEqual([tagged._id]);
    expect(new Set((await search(client, t)).echos.map((e) => e._id))).toEqual(new Set([tagged._id, inText._id]));
    expect((await search(client, `#${t.toUpperCase()}`)).echos.map((e) => e._id)).toEqual([tagged._id]);
  });

  it("@user finds that user's echos, alone or with words; an unknown user finds nothing", async () => {
    const a = await signedUp("sa");
    const b = await signedUp("sb");
    const w = word("cat");
    const byA = await post(a.client, `${w} by a`);
    const byB = await post(b.client, `${w} by b`);
    expect((await search(a.client, `@${b.user.userName} ${w}`)).echos.map((e) => e._id)).toEqual([byB._id]);
    expect((await search(a.client, `@${a.user.userName.toUpperCase()}`)).echos.map((e) => e._id)).toEqual([byA._id]);
    expect((await search(a.client, `@nobody${w} ${w}`)).echos).toEqual([]);
  });

  it("ranks by relevance (bm25: the word in a short echo before a long one), equal scores newest first", async () => {
    const { client } = await signedUp("sr");
    const w = word("rk");
    const short = await post(client, `${w} short`);
    const long = await post(client, `${w} ${"with many other words around it ".repeat(6)}`);
    const twinOld = await post(client, `${w} twin text`);
    const twinNew = await post(client, `${w} twin text`);
    // newest first would be twinNew, twinOld, long, short
    expect((await search(client, w)).echos.map((e) => e._id)).toEqual([short._id, twinNew._id, twinOld._id, long._id]);
  });

  it("pages by cursor through more matches than one ranking window, each echo once", async () => {
    const { client } = await signedUp("sp");
    const w = word("pg");
    const posted = new Set<string>();
    for (let i = 0; i < 65; i++) posted.add((await post(client, `${w} number ${i}`))._id);
    const seen: string[] = [];
    const sizes: number[] = [];
    let url = "";
    for (let page = 1; page <= 10; page++) {
      const res = await search(client, w, url);
      expect(res.pagination.page).toBe(page);
      sizes.push(res.echos.length);
      seen.push(...res.echos.map((e) => e._id));
      if (!res.pagination.hasMore) break;
      url = `&page=${page + 1}&cursor=${res.pagination.nextCursor}`;
    }
    expect(sizes).toEqual([20, 20, 20, 5]);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(posted);
    const bad = await client.get(path(w, "&cursor=abc"));
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("cursor is invalid");
    const deep = await client.get(path(w, "&page=3"));
    expect(deep.status).toBe(400);
    expectErrorShape(deep.json);
  });

  it("a deleted echo, and every echo of a deleted account, disappear from search", async () => {
    const { client } = await signedUp("sd");
    const w = word("gone");
    const echo = await post(client, `${w} soon deleted`);
    const kept = await post(client, `${w} kept`);
    expect(new Set((await search(client, w)).echos.map((e) => e._id))).toEqual(new Set([echo._id, kept._id]));
    expect((await client.delete(`/api/echo/delete/${echo._id}`)).status).toBeLessThan(300);
    expect((await search(client, w)).echos.map((e) => e._id)).toEqual([kept._id]);

    const other = await signedUp("so");
    await post(other.client, `${w} from an account about to go`);
    expect(await contents(client, w)).toHaveLength(2);
    expect((await other.client.request("DELETE", "/api/profile/me", { password: "pass1234" })).status).toBeLessThan(300);
    // the account's echos leave through the change stream (decision 032), newest first
    for (let deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      if ((await search(client, w)).echos.length === 1) break;
    }
    expect((await search(client, w)).echos.map((e) => e._id)).toEqual([kept._id]);
  });

  it("hostile queries: FTS syntax is plain text; empty, blank, 1,000 characters and ill-formed text are a 400", async () => {
    const { client } = await signedUp("sh");
    const w = word("hq");
    await post(client, `${w} plain`);
    // operators and syntax are words to us: none of them widens or breaks the search
    for (const q of [
      `${w} OR zzz${w}`, `${w} NOT plain`, `NEAR(${w} plain)`, `"${w}`, `${w}"`, `${w}*`, `^${w}`, `body:${w}`,
      `eid:${w}`, `{body tags}: ${w}`, `(${w})`, `-${w}`, `${w} AND plain`, `${w} +`, `"${w}" "plain"`,
    ]) {
      const res = await client.get(path(q));
      expect(res.status, q).toBe(200);
      expect(Array.isArray(res.json.echos), q).toBe(true);
    }
    expect(await contents(client, `${w} OR zzz${w}`)).toEqual([]); // OR is a word here, not an operator
    expect(await contents(client, `NEAR(${w} plain)`)).toEqual([]); // "near" must be in the text too
    expect(await contents(client, `(${w})`)).toHaveLength(1);
    expect(await contents(client, `"${w}" "plain"`)).toHaveLength(1);
    // only syntax, no word: nothing is searched, nothing is found
    for (const q of ['"', "*", "^", ":", "(", ")", "-", '" * ^ : ( ) -', "#", "@", "#!!", "@@@", "🙂"]) {
      const res = await client.get(path(q));
      expect(res.status, q).toBe(200);
      expect(res.json.echos, q).toEqual([]);
    }
    for (const [q, message] of [
      ["", "q is required"],
      ["   \t ", "q is required"],
      ["x".repeat(1000), "q must be at most 200 characters"],
      [Array.from({ length: 11 }, (_, i) => `w${i}`).join(" "), "q may have at most 10 words"],
    ] as const) {
      const res = await client.get(path(q));
      expect(res.status, q.slice(0, 20)).toBe(400);
      expectErrorShape(res.json);
      expect(res.json.error).toBe(message);
    }
    for (const raw of ["%ED%A0%80", "%FF", "a%00b", "%E2%80"]) {
      const res = await client.get(`/api/search/echos?q=${raw}`);
      expect(res.status, raw).toBe(400);
      expectErrorShape(res.json);
    }
    expect((await client.get("/api/search/echos")).status).toBe(400);
  });
});
