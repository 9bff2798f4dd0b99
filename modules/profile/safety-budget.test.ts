// The budget with 1,000 blocks (issue 32, decision 026): a viewer who blocks 1,000 accounts (and
// is blocked by one, and mutes one, and mutes 100 words), among whose lists' candidates 2 of every 5 are by those
// hidden authors, reads every list's page of 20 full, ≤ 200 rows, with no hidden author; the
// largest pages (LIST_MAX_LIMIT) are measured beside what they cost a viewer with no blocks. The 1,000 accounts and blocks are written directly (a
// sign-up hashes a password: 1,000 through the API take over 10 minutes); the triggers build the
// hidden-author set as the API's blocks would. Prints the table decision 026 quotes.
import { env } from "cloudflare:workers";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { listEchos, listFollowing, listTag, postEcho, searchEchos } from "../echo/index.server";
import { CreateScrollSchema } from "../scroll/index";
import { addEcho, createScroll, scrollEchos } from "../scroll/index.server";
import { LIST_MAX_LIMIT } from "../shared/index";
import { batch, configureRequestDb, createDb, instrumentD1, rebuildMutedWordSet, sql, testAppContext, type D1Stats } from "../shared/index.server";
import { setUserFollow } from "./profile.server";
import { setBlock, setMute } from "./safety.server";

const BLOCKS = 1_000;
const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user;

/** An app whose D1 counts what it is asked, and coalesces reads as a GET request's does (a page's
 * lookup and its guessed page go in one round trip, pages.server.ts). */
function measuredApp(stats: D1Stats) {
  const a = testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) });
  configureRequestDb(a.db, { coalesce: true });
  return a;
}

/** A list page read through an instrumented D1: its echos' authors and its cost. */
async function measured(read: (a: ReturnType<typeof app>) => Promise<{ echos: { author: { _id: string }; content: string }[]; pagination: { nextCursor?: string | null } }>) {
  const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
  const page = await read(measuredApp(stats));
  return { authors: page.echos.map((e) => e.author._id), more: Boolean(page.pagination.nextCursor), worded: page.echos.filter((e) => e.content.includes("mutedhere")).length, ...stats };
}

describe("blocks and mutes within the budget (real D1)", () => {
  it(`${BLOCKS} blocks, 2 of 5 candidates hidden: every list's page of 20 full, no hidden author, ≤ 200 rows`, { timeout: 180_000 }, async () => {
    const viewer = await user("bud_viewer");
    const plain = await user("bud_plain"); // the same pages for a viewer with no blocks
    const [blocked, muted, blocker, seen1, seen2] = await Promise.all(["bud_b", "bud_m", "bud_x", "bud_s1", "bud_s2"].map(user));
    for (const who of [blocked!, muted!, blocker!, seen1!, seen2!]) {
      await setUserFollow(app(), viewer._id, who._id, true);
      await setUserFollow(app(), plain._id, who._id, true);
    }
    // interleaved, newest last: two of every five echos are by hidden authors
    for (let i = 0; i < 60; i++) {
      for (const who of [blocked!, muted!, blocker!, seen1!, seen2!]) {
        // one in four of a seen author's echos says a word the viewer mutes (hide): the lists step
        // over it as over a hidden author's (issue 32: feed and search pages were short by them)
        const said = who === seen2 && i % 4 === 0 ? "budgetword mutedhere" : "budgetword";
        await postEcho(app(), who._id, { content: `${said} echo ${i}`, tags: ["budgettag"] });
      }
    }
    const curation = await createScroll(app(), viewer._id, { name: "All of them", type: "curation", description: null, isPrivate: false });
    const posted = (await listEchos(app(), plain._id, { tag: "budgettag" }, { page: 1, limit: 100 })).echos.map((e) => e._id);
    for (const id of posted.slice(0, 100).reverse()) await addEcho(app(), viewer._id, curation._id, id);
    const tagFeed = await createScroll(app(), viewer._id, v.parse(CreateScrollSchema, { name: "Tag feed", type: "feed", feedConfig: { includedTags: ["budgettag"] } }));
    // rules with tests beyond the entry's stream (an excluded tag; what the reader liked): measured
    // beside the tag feed (decision 026, "Rules with tests": their bound)
    const testedFeed = await createScroll(app(), viewer._id, v.parse(CreateScrollSchema, { name: "Tested feed", type: "feed", feedConfig: { includedTags: ["budgettag"], excludedTags: ["budgetnone"] } }));
    const unlikedFeed = await createScroll(app(), viewer._id, v.parse(CreateScrollSchema, { name: "Unliked feed", type: "feed", feedConfig: { includedTags: ["budgettag"], excludeLikedEchos: true } }));
    // feeds naming authors the viewer hides: all of them (empty for the viewer, and ended), and
    // one of them beside a seen author (only the seen author's streams are read)
    const hiddenAuthorsFeed = await createScroll(app(), viewer._id, v.parse(CreateScrollSchema, { name: "Hidden authors", type: "feed", feedConfig: { authors: [blocked!._id, muted!._id, blocker!._id] } }));
    const mixedAuthorsFeed = await createScroll(app(), viewer._id, v.parse(CreateScrollSchema, { name: "Mixed authors", type: "feed", feedConfig: { authors: [blocked!._id, seen1!._id, muted!._id] } }));

    await setBlock(app(), viewer._id, blocked!._id, true);
    await setMute(app(), viewer._id, muted!._id, "forever");
    await setBlock(app(), blocker!._id, viewer._id, true);
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BLOCKS - 1})
       INSERT INTO users (id, user_name, password_hash, created_at) SELECT printf('zb%024d', i), 'budget_crowd' || i, 'x', 1 FROM n`,
    ).run();
    await env.DB.prepare(`INSERT INTO blocks (blocker_id, blocked_id, created_at) SELECT ?, id, 1 FROM users WHERE id LIKE 'zb%'`).bind(viewer._id).run();
    // and 100 muted words (the most one may have, decision 028) in every context, the last of
    // which ("mutedhere") hides one in four of a seen author's echos: each candidate is tested
    // against all 100
    await batch(app().db, [
      ...Array.from({ length: 100 }, (_, i) => {
        const word = i === 99 ? "mutedhere" : `nomatch${i}`;
        return sql`INSERT INTO muted_words (user_id, id, phrase, pattern, action, contexts, created_at) VALUES (${viewer._id}, ${`w${String(i).padStart(3, "0")}`}, ${word}, ${` ${word} `}, 'hide', 31, 1)`;
      }),
      ...rebuildMutedWordSet(viewer._id, Date.now()),
    ]);
    const set = await env.DB.prepare("SELECT length(authors) AS bytes, (SELECT count(*) FROM json_each(authors)) AS n FROM hidden_authors WHERE user_id = ?").bind(viewer._id).first<{ bytes: number; n: number }>();
    expect(set!.n).toBe(BLOCKS + 2);

    const hidden = new Set([blocked!._id, muted!._id, blocker!._id]);
    const wordHidden = (e: { content: string }) => e.content.includes("mutedhere");
    type Read = (viewerId: string, limit: number) => (a: ReturnType<typeof app>) => ReturnType<typeof listEchos>;
    const lists: [string, number, Read][] = [
      ["All echos", LIST_MAX_LIMIT.allEchos, (v, limit) => (a) => listEchos(a, v, {}, { page: 1, limit })],
      ["All echos by tag", LIST_MAX_LIMIT.tagEchos, (v, limit) => (a) => listEchos(a, v, { tag: "budgettag" }, { page: 1, limit })],
      ["tag, newest", LIST_MAX_LIMIT.tagEchos, (v, limit) => (a) => listTag(a, v, "budgettag", { orderBy: "newest", timeframe: "all" }, { page: 1, limit })],
      ["tag, most liked", LIST_MAX_LIMIT.tagEchos, (v, limit) => (a) => listTag(a, v, "budgettag", { orderBy: "likes", timeframe: "all" }, { page: 1, limit })],
      ["Following", LIST_MAX_LIMIT.following, (v, limit) => (a) => listFollowing(a, v, { page: 1, limit })],
      ["a seen author's echos", 60, (v, limit) => (a) => listEchos(a, v, { user: seen1!._id }, { page: 1, limit })],
      ["curation", 36, (v, limit) => (a) => scrollEchos(a, v, curation._id, { page: 1, limit })],
      ["feed by tag (engine)", 20, (v, limit) => (a) => scrollEchos(a, v, tagFeed._id, { page: 1, limit: Math.min(limit, 20) })],
      ["feed, tag less a tag (engine, tested)", 20, (v, limit) => (a) => scrollEchos(a, v, testedFeed._id, { page: 1, limit: Math.min(limit, 20) })],
      ["feed, hide-liked (engine, tested)", 20, (v, limit) => (a) => scrollEchos(a, v, unlikedFeed._id, { page: 1, limit: Math.min(limit, 20) })],
      ["feed, hidden authors only (engine)", 20, (v, limit) => (a) => scrollEchos(a, v, hiddenAuthorsFeed._id, { page: 1, limit: Math.min(limit, 20) })],
      ["feed, a seen author among hidden ones (engine, tested)", 20, (v, limit) => (a) => scrollEchos(a, v, mixedAuthorsFeed._id, { page: 1, limit: Math.min(limit, 20) })],
      ["search", LIST_MAX_LIMIT.searchEchos, (v, limit) => (a) => searchEchos(a, v, "budgetword", { page: 1, limit })],
    ];
    // the client's page (20): asserted full and within budget; the largest page: measured (decision 026)
    const table: string[] = [
      `| list | page 20: echos | rt, rows, ${BLOCKS} blocks | rows, no blocks | largest page | echos | rt, rows, ${BLOCKS} blocks | rows, no blocks |`,
      "|---|---|---|---|---|---|---|---|",
    ];
    const failures: string[] = [];
    for (const [name, largest, read] of lists) {
      const row = [name];
      for (const limit of [20, largest]) {
        const mine = await measured(read(viewer._id, limit));
        const theirs = await measured(read(plain._id, limit));
        if (limit !== 20 || largest === 20) row.push(String(limit));
        row.push(String(mine.authors.length), `${mine.roundTrips}, ${mine.rowsRead}`, String(theirs.rowsRead));
        if (mine.authors.some((a) => hidden.has(a))) failures.push(`${name} (${limit}): a hidden author`);
        if (mine.worded > 0) failures.push(`${name} (${limit}): ${mine.worded} echos of a muted word`);
        // a feed's page too (decision 026, "Full pages for heavy hiders"): an author the viewer
        // hides is stepped over on the entry, and a shown echo's row is read once — it answered
        // 11 of 20, with its cursor, when every entry was probed
        // a rule with tests too, for a viewer the page knows hides anyone (the scroll's lookup reads
        // it): the scan, not the engine's numbered, probed window (18 entries a screen, 7 of 20 here
        // before); a hide-liked one's scan is smaller (its like probes), measured, not asserted
        // (decision 026, "The page's path chosen knowing the viewer")
        if (name.includes("hidden authors only")) {
          if (mine.authors.length !== 0 || mine.more) failures.push(`${name}: ${mine.authors.length} echos, more: ${mine.more}`);
        } else if (limit === 20 && !name.includes("hide-liked") && mine.authors.length !== 20) failures.push(`${name}: ${mine.authors.length} of 20`);
        // every page, the largest too, within the budget (the scan window, decision 026): before it
        // All's largest page read 215 rows here, a tag's 273, a curation's 223
        // and every page in ≤ 2 round trips (the feed's page took 3 here: issue 32)
        if (mine.rowsRead > 200 || mine.roundTrips > 2) failures.push(`${name} (${limit}): ${mine.roundTrips} rt, ${mine.rowsRead} rows`);
      }
      table.push(`| ${row.join(" | ")} |`);
    }
    console.warn(`hidden-author set: ${set!.n} authors, ${set!.bytes} bytes\n${table.join("\n")}`);
    // the windowed lists walked by cursor at their largest page: every shown echo once, in order,
    // each page within the budget; short pages carry a cursor until the list's end
    const walks: [string, number, (a: ReturnType<typeof app>, viewerId: string, cursor?: string) => ReturnType<typeof listEchos>][] = [
      ["All echos", LIST_MAX_LIMIT.allEchos, (a, v, cursor) => listEchos(a, v, {}, { page: 1, limit: LIST_MAX_LIMIT.allEchos, cursor })],
      ["tag, newest", LIST_MAX_LIMIT.tagEchos, (a, v, cursor) => listTag(a, v, "budgettag", { orderBy: "newest", timeframe: "all" }, { page: 1, limit: LIST_MAX_LIMIT.tagEchos, cursor })],
      ["curation", 36, (a, v, cursor) => scrollEchos(a, v, curation._id, { page: 1, limit: 36, cursor })],
      ["feed by tag", 20, (a, v, cursor) => scrollEchos(a, v, tagFeed._id, { page: 1, limit: 20, cursor })],
      ["feed, tag less a tag", 20, (a, v, cursor) => scrollEchos(a, v, testedFeed._id, { page: 1, limit: 20, cursor })],
      ["feed, hide-liked", 20, (a, v, cursor) => scrollEchos(a, v, unlikedFeed._id, { page: 1, limit: 20, cursor })],
      ["feed, a seen author among hidden ones", 20, (a, v, cursor) => scrollEchos(a, v, mixedAuthorsFeed._id, { page: 1, limit: 20, cursor })],
    ];
    for (const [name, , read] of walks) {
      const all: string[] = [];
      let cursor: string | undefined;
      do {
        const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
        const page = await read(measuredApp(stats), viewer._id, cursor);
        // a page that shows nothing probes once more (scan-window.server.ts): a curation's lookup
        // and its page share the first round trip (as a GET's reads coalesce), so ≤ 2 even then
        if (stats.rowsRead > 200 || stats.roundTrips > 2) failures.push(`${name} walk: ${stats.roundTrips} rt, ${stats.rowsRead} rows`);
        all.push(...page.echos.filter((e) => e.content.startsWith("budgetword")).map((e) => e._id));
        cursor = page.pagination.nextCursor ?? undefined;
      } while (cursor && all.length < 1_000);
      const expected: string[] = [];
      let c: string | undefined;
      do {
        const page = await read(app(), plain._id, c);
        expected.push(...page.echos.filter((e) => e.content.startsWith("budgetword") && !hidden.has(e.author._id) && !wordHidden(e)).map((e) => e._id));
        c = page.pagination.nextCursor ?? undefined;
      } while (c);
      if (JSON.stringify(all) !== JSON.stringify(expected)) failures.push(`${name} walk: ${all.length} echos, expected ${expected.length}`);
    }
    expect(failures).toEqual([]);
  });
});
