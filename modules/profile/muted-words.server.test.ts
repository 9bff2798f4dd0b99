// Muted words (issue 32, decision 028) on real D1: matching (word boundaries, case and accents,
// #tag vs word), hide and warn, contexts, expiry, one's own echos, bad input, the limit, and the
// budget with 100 words.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import * as v from "valibot";
import { editEcho, listEchos, listFollowing, listTag, postEcho, searchEchos } from "../echo/index.server";
import { CreateScrollSchema } from "../scroll/index";
import { addEcho, createScroll, scrollEchos } from "../scroll/index.server";
import { MAX_MUTED_WORDS } from "../shared/index";
import { createDb, instrumentD1, testAppContext, type D1Stats } from "../shared/index.server";
import { setUserFollow } from "./profile.server";
import { addMutedWord, listMutedWords, removeMutedWord } from "./muted-words.server";
import type { AddMutedWordInput } from "./schema";

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user;
const word = (phrase: string, more: Partial<AddMutedWordInput> = {}): AddMutedWordInput => ({
  phrase,
  action: "hide",
  contexts: ["home", "feeds", "tags", "search", "notifications"],
  duration: "forever",
  ...more,
});
const contents = async (viewerId: string, tag?: string) =>
  (await listEchos(app(), viewerId, tag ? { tag } : {}, { page: 1, limit: 60 })).echos.map((e) => e.content);

describe("muted words (real D1)", () => {
  it("hides on word boundaries, folding case and accents; a #tag only matches tags", async () => {
    const viewer = await user("mw_viewer1");
    const author = await user("mw_author1");
    const texts = ["I love Café culture", "cafeteria food", "rust is fine", "a hot take here", "hot and take apart", "no match", "tagged only"];
    for (const t of texts) await postEcho(app(), author._id, { content: t, tags: t === "tagged only" ? ["rustlang"] : [] });
    await addMutedWord(app(), viewer._id, word("CAFE"));
    await addMutedWord(app(), viewer._id, word("hot take"));
    await addMutedWord(app(), viewer._id, word("#RustLang"));
    const shown = await contents(viewer._id);
    expect(shown).not.toContain("I love Café culture");
    expect(shown).toContain("cafeteria food"); // not a whole word
    expect(shown).not.toContain("a hot take here");
    expect(shown).toContain("hot and take apart"); // a phrase's words must be adjacent
    expect(shown).toContain("rust is fine"); // #rustlang is a tag, not the word
    expect(shown).not.toContain("tagged only");
    // the viewer's own echos are never muted
    await postEcho(app(), viewer._id, { content: "my own cafe", tags: [] });
    expect(await contents(viewer._id)).toContain("my own cafe");
    // a plain word matches a tag too
    const other = await user("mw_viewer1b");
    await addMutedWord(app(), other._id, word("rustlang"));
    expect(await contents(other._id)).not.toContain("tagged only");
  });

  it("warn keeps the echo and names the phrase; contexts, expiry, removal; pages stay full", async () => {
    const viewer = await user("mw_viewer2");
    const author = await user("mw_author2");
    await setUserFollow(app(), viewer._id, author._id, true);
    for (let i = 0; i < 30; i++) await postEcho(app(), author._id, { content: `${i % 2 ? "spoiler alert" : "plain"} ${i}`, tags: ["mwtag"] });
    const warned = await addMutedWord(app(), viewer._id, word("Spoiler", { action: "warn", contexts: ["home"] }));
    expect(warned).toMatchObject({ phrase: "Spoiler", action: "warn", contexts: ["home"], expiresAt: null });
    const home = await listFollowing(app(), viewer._id, { page: 1, limit: 20 });
    expect(home.echos).toHaveLength(20);
    for (const e of home.echos) expect(e.mutedWord).toBe(e.content.startsWith("spoiler") ? "Spoiler" : undefined);
    // not in the tag context
    const tag = await listTag(app(), viewer._id, "mwtag", { orderBy: "newest", timeframe: "all" }, { page: 1, limit: 20 });
    expect(tag.echos.every((e) => e.mutedWord === undefined)).toBe(true);
    // the same phrase again replaces its options (one row): hide in tags only
    const again = await addMutedWord(app(), viewer._id, word("spoiler", { action: "hide", contexts: ["tags"] }));
    expect(again._id).toBe(warned._id);
    expect((await listMutedWords(app(), viewer._id)).words).toHaveLength(1);
    const tagPage = await listTag(app(), viewer._id, "mwtag", { orderBy: "newest", timeframe: "all" }, { page: 1, limit: 10 });
    expect(tagPage.echos).toHaveLength(10); // full, though half the candidates are hidden
    expect(tagPage.echos.every((e) => e.content.startsWith("plain"))).toBe(true);
    expect((await listFollowing(app(), viewer._id, { page: 1, limit: 20 })).echos.some((e) => e.content.startsWith("spoiler"))).toBe(true);
    // an ended word hides nothing (without waiting for any cleanup)
    await env.DB.prepare("UPDATE muted_words SET expires_at = 1 WHERE user_id = ?").bind(viewer._id).run();
    await env.DB.prepare("UPDATE muted_word_sets SET sets = json_set(sets, '$[0][1]', 1) WHERE user_id = ?").bind(viewer._id).run();
    expect((await listTag(app(), viewer._id, "mwtag", { orderBy: "newest", timeframe: "all" }, { page: 1, limit: 10 })).echos.some((e) => e.content.startsWith("spoiler"))).toBe(true);
    expect((await listMutedWords(app(), viewer._id)).words).toEqual([]);
    // removal
    const w = await addMutedWord(app(), viewer._id, word("plain", { contexts: ["tags"] }));
    expect((await listTag(app(), viewer._id, "mwtag", { orderBy: "newest", timeframe: "all" }, { page: 1, limit: 10 })).echos.some((e) => e.content.startsWith("plain"))).toBe(false);
    await removeMutedWord(app(), viewer._id, w._id);
    await removeMutedWord(app(), viewer._id, w._id); // idempotent
    expect((await listTag(app(), viewer._id, "mwtag", { orderBy: "newest", timeframe: "all" }, { page: 1, limit: 10 })).echos.some((e) => e.content.startsWith("plain"))).toBe(true);
    const set = await env.DB.prepare("SELECT count(*) AS n FROM muted_word_sets WHERE user_id = ?").bind(viewer._id).first<{ n: number }>();
    expect(set!.n).toBe(0);
  });

  it("each context: feeds (engine) and curations, search — only where the word applies (notifications: tests/api/muted-words.test.ts)", { timeout: 60_000 }, async () => {
    const viewer = await user("mw_viewer5");
    const author = await user("mw_author5");
    const texts = ["ctxword alpha", "other beta", `ctxword @${viewer.userName} gamma`, `plain @${viewer.userName} delta`];
    const posted = [];
    for (const t of texts) posted.push(await postEcho(app(), author._id, { content: t, tags: ["mwctx"] }));
    const feed = await createScroll(app(), viewer._id, v.parse(CreateScrollSchema, { name: "ctx feed", type: "feed", feedConfig: { includedTags: ["mwctx"] } }));
    const curation = await createScroll(app(), viewer._id, { name: "ctx curation", type: "curation", description: null, isPrivate: false });
    for (const e of posted) await addEcho(app(), viewer._id, curation._id, e._id);
    const feedTexts = async (id: string) => (await scrollEchos(app(), viewer._id, id, { page: 1, limit: 20 })).echos.map((e) => e.content);
    const searchTexts = async (q = "ctxword") => (await searchEchos(app(), viewer._id, q, { page: 1, limit: 20 })).echos.map((e) => e.content);
    expect(await feedTexts(feed._id)).toHaveLength(4);

    const w = await addMutedWord(app(), viewer._id, word("ctxword", { contexts: ["feeds"] }));
    expect(await feedTexts(feed._id)).toEqual(expect.not.arrayContaining(["ctxword alpha"]));
    expect(await feedTexts(feed._id)).toHaveLength(2);
    expect(await feedTexts(curation._id)).toHaveLength(2);
    expect(await searchTexts()).toContain("ctxword alpha"); // not the search context

    await addMutedWord(app(), viewer._id, word("ctxword", { contexts: ["search", "notifications"] }));
    expect(await feedTexts(feed._id)).toHaveLength(4); // the options replaced: no longer feeds
    expect(await searchTexts()).toEqual([]);
    expect(await searchTexts("beta")).toEqual(["other beta"]);

    await addMutedWord(app(), viewer._id, word("ctxword", { action: "warn", contexts: ["feeds"] }));
    const warned = (await scrollEchos(app(), viewer._id, feed._id, { page: 1, limit: 20 })).echos;
    expect(warned.filter((e) => e.mutedWord === "ctxword").map((e) => e.content).sort()).toEqual(["ctxword alpha", `ctxword @${viewer.userName} gamma`].sort());
    await removeMutedWord(app(), viewer._id, w._id);
    expect(await feedTexts(feed._id)).toHaveLength(4);
  });

  it("an edit refolds the echo; words others never typed match nothing", async () => {
    const viewer = await user("mw_viewer3");
    const author = await user("mw_author3");
    const echo = await postEcho(app(), author._id, { content: "harmless", tags: [] });
    await addMutedWord(app(), viewer._id, word("naïve"));
    expect(await contents(viewer._id)).toContain("harmless");
    await editEcho(app(), author._id, echo._id, { content: "quite NAIVE now", tags: [], warning: null });
    expect(await contents(viewer._id)).not.toContain("quite NAIVE now");
  });

  it(`at most ${MAX_MUTED_WORDS} words (400, nothing written); a page of 20 with ${MAX_MUTED_WORDS} words stays full and within budget`, { timeout: 120_000 }, async () => {
    const viewer = await user("mw_viewer4");
    const plain = await user("mw_plain4");
    const authors = await Promise.all([0, 1, 2, 3, 4].map((i) => user(`mw_author4_${i}`)));
    for (const v of [viewer, plain]) for (const a of authors) await setUserFollow(app(), v._id, a._id, true);
    // 2 of every 5 candidates match one of the words (hide), 1 in 5 a warn word
    for (let i = 0; i < 150; i++) {
      const kind = i % 5;
      const content = kind < 2 ? `budget noise${i % 90} echo ${i}` : kind === 2 ? `budget careful echo ${i}` : `budget fine echo ${i}`;
      await postEcho(app(), authors[kind]!._id, { content, tags: ["mwbudget"] });
    }
    for (let i = 0; i < MAX_MUTED_WORDS - 1; i++) await addMutedWord(app(), viewer._id, word(`noise${i}`));
    await addMutedWord(app(), viewer._id, word("careful", { action: "warn" }));
    await expect(addMutedWord(app(), viewer._id, word("one too many"))).rejects.toThrow(`at most ${MAX_MUTED_WORDS}`);
    expect((await listMutedWords(app(), viewer._id)).words).toHaveLength(MAX_MUTED_WORDS);

    const measured = async (viewerId: string, read: (a: ReturnType<typeof app>, v: string) => Promise<{ echos: { content: string; mutedWord?: string }[] }>) => {
      const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
      const page = await read(testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) }), viewerId);
      return { page, ...stats };
    };
    const lists: [string, (a: ReturnType<typeof app>, v: string) => ReturnType<typeof listEchos>][] = [
      ["All echos", (a, v) => listEchos(a, v, {}, { page: 1, limit: 20 })],
      ["All echos by tag", (a, v) => listEchos(a, v, { tag: "mwbudget" }, { page: 1, limit: 20 })],
      ["tag, newest", (a, v) => listTag(a, v, "mwbudget", { orderBy: "newest", timeframe: "all" }, { page: 1, limit: 20 })],
      ["tag, most liked", (a, v) => listTag(a, v, "mwbudget", { orderBy: "likes", timeframe: "all" }, { page: 1, limit: 20 })],
      ["Following", (a, v) => listFollowing(a, v, { page: 1, limit: 20 })],
    ];
    const table = ["| list | echos | warned | rt | rows, 100 words | rows, no words |", "|---|---|---|---|---|---|"];
    for (const [name, read] of lists) {
      const m = await measured(viewer._id, read);
      const p = await measured(plain._id, read);
      table.push(`| ${name} | ${m.page.echos.length} | ${m.page.echos.filter((e) => e.mutedWord).length} | ${m.roundTrips} | ${m.rowsRead} | ${p.rowsRead} |`);
      expect(m.page.echos, name).toHaveLength(20);
      expect(m.page.echos.some((e) => e.content.includes("noise")), name).toBe(false);
      expect(m.page.echos.filter((e) => e.content.includes("careful")).every((e) => e.mutedWord === "careful"), name).toBe(true);
      expect(m.roundTrips, name).toBeLessThanOrEqual(2);
      expect(m.rowsRead, name).toBeLessThanOrEqual(200);
    }
    console.warn(`muted words, ${MAX_MUTED_WORDS} of them:\n${table.join("\n")}`);
  });
});
