import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { batch, select, sql, testAppContext } from "../shared/index.server";
import { postEcho } from "./echo.server";
import { deleteEcho } from "./purge.testing";
import { parseSearch } from "./search-query";
import { markedRanges, searchEchos } from "./search.server";

const app = () => testAppContext(env);
const first = { page: 1, limit: 20 };
async function user(name: string) {
  return (await signup(app(), { userName: name, password: "pass1234" })).user;
}
const contents = async (viewer: string, q: string) => (await searchEchos(app(), viewer, q, first)).echos.map((e) => e.content);

describe("echo search index (migration 0013) against real D1", () => {
  it("follows posts and deletes, keeps one row per echo, and matches words, #tags and @users", async () => {
    const ann = await user("ann_search");
    const bob = await user("bob.search");
    const a = await postEcho(app(), ann._id, { content: "Café au lait in Zürich", tags: ["foo-bar", "coffee"] });
    const b = await postEcho(app(), bob._id, { content: "a well-known tea house", tags: ["foo", "bar"] });
    expect(await contents(ann._id, "cafe")).toEqual([a.content]);
    expect(await contents(ann._id, "ZURICH")).toEqual([a.content]);
    expect(await contents(ann._id, "coffee")).toEqual([a.content]); // a tag is searched as a word too
    expect(await contents(ann._id, "#foo-bar")).toEqual([a.content]); // not foo + bar of the other echo
    expect(await contents(ann._id, "#foo")).toEqual([b.content]);
    expect(await contents(ann._id, "well-known")).toEqual([b.content]);
    expect(await contents(ann._id, "@BOB.search")).toEqual([b.content]);
    expect(await contents(ann._id, "@bob.search café")).toEqual([]);
    expect(await contents(ann._id, "@nobody_here")).toEqual([]);

    await deleteEcho(app(), ann._id, a._id);
    expect(await contents(ann._id, "cafe")).toEqual([]);
    const [rows] = await batch(app().db, [
      select({ n: sql<number>`(SELECT COUNT(*) FROM echo_search)`, e: sql<number>`(SELECT COUNT(*) FROM echos)` }, sql``),
    ]);
    expect(rows[0]!.n).toBe(rows[0]!.e);
  });

  it("marks the matched words by their offsets in the text", async () => {
    const cy = await user("cy_search");
    await postEcho(app(), cy._id, { content: "Tea, then more tea: TEA!", tags: [] });
    const [hit] = (await searchEchos(app(), cy._id, "tea", first)).echos;
    expect(hit!.highlights.content.map(([s, e]) => hit!.content.slice(s, e))).toEqual(["Tea", "tea", "TEA"]);
    expect(markedRanges("a \u0001b\u0002", "different")).toEqual([]);
  });

  it("turns syntax into plain text and refuses empty or oversized queries", () => {
    expect(parseSearch('"a" NEAR(b) -c* ^d:e')).toEqual([
      { kind: "words", text: "a" },
      { kind: "words", text: "NEAR b" },
      { kind: "words", text: "c" },
      { kind: "words", text: "d e" },
    ]);
    expect(parseSearch("( ) * ^")).toEqual([]);
    expect(() => parseSearch("  ")).toThrow("q is required");
    expect(() => parseSearch("x".repeat(1000))).toThrow("at most 200 characters");
  });
});
