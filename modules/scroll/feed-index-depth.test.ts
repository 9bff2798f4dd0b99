// Oldest-first feeds at every depth (issue 27; measured on the 0.1 store: an any-of-10-tags feed
// with dates answered 16–19 echos on pages 26–44, past its index's frontier). A population of
// oldest-first rules — sparse and dense, one tag and many, one index built and checked by the
// backfill and the repair pass as the cron runs them, two capped below their feed's length — is
// paged to its end by cursor and by number (the page number with the cursor the page before
// left: what page-bookmarks.server.ts sends), each page as a GET reads it: every page is full
// (20, or all that is left), every match once in the feed's order, ≤ 200 rows, ≤ 2 round trips.
import { env } from "cloudflare:workers";
import { describe, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, sql, testAppContext } from "../shared/index.server";
import { indexStatements } from "./feed-index.server";
import { backfillStep } from "./feed-index-backfill.server";
import { repairIndexes } from "./feed-index-repair.server";
import { pageToTheEnd, writeEchos } from "./depth-paging.test-support";
import { ruleKeyOf } from "./rule.server";
import { feedScroll, thinRule, writeThinMatches } from "./thin-matches.test-support";
import type { FeedRule } from "./schema";

const app = () => testAppContext(env);
const TEN = Array.from({ length: 10 }, (_, i) => `dp${i}`);

/** A scroll of `rule` whose index keeps only its first `kept` matches (ready, incomplete, its frontier the last kept). */
async function cappedIndex(creatorId: string, rule: FeedRule, expected: string[], kept: number) {
  const key = ruleKeyOf(rule);
  const scrollId = newId(Date.now());
  await batch(app().db, [
    ...indexStatements(rule, sql`1`),
    ...expected.slice(0, kept).map((id) => sql`INSERT INTO feed_index_entries (index_id, rank, echo_id) SELECT id, 0, ${id} FROM feed_indexes WHERE rule_key = ${key}`),
    sql`UPDATE feed_indexes SET state = 'ready', complete = 0, cap = ${kept}, floor = ${expected[kept - 1]!} WHERE rule_key = ${key}`,
    feedScroll(scrollId, creatorId, rule, key),
  ]);
  return scrollId;
}

/** A scroll of `rule` whose index the backfill builds, as the queue's consumer runs it. */
async function builtIndex(creatorId: string, rule: FeedRule) {
  const key = ruleKeyOf(rule);
  const scrollId = newId(Date.now());
  await batch(app().db, [...indexStatements(rule, sql`1`), feedScroll(scrollId, creatorId, rule, key)]);
  for (let step = 0; step < 50 && (await backfillStep(app().db, key)); step++);
  return scrollId;
}

describe("oldest-first feeds past their index's frontier", { timeout: 240_000 }, () => {
  it("answer full pages at every depth, by cursor and by number, within the budget", async () => {
    const me = (await signup(app(), { userName: "depth_me", password: "pass1234" })).user._id;
    const start = Date.now() - 10_000_000;
    // sparse: one match in two (the others carry the excluded "noise"), 600 of them; its index
    // is built by the backfill and checked by the repair pass
    const thin = await writeThinMatches(app(), me, "dpthin", 600, start);
    // any of ten tags, with dates: 400 echos carrying one to three of them (an echo is found by
    // each of its tags' streams), 1 in 8 outside the dates
    const many = await writeEchos(app(), me, start + 2_000_000, 400, (i) => [TEN[i % 10]!, ...(i % 3 === 0 ? [TEN[(i + 3) % 10]!] : []), ...(i % 7 === 0 ? [TEN[(i + 5) % 10]!] : [])]);
    // dense: one tag, every echo a match
    const dense = await writeEchos(app(), me, start + 3_000_000, 150, () => ["dpdense"]);

    const thinRuleOf = thinRule("dpthin", "oldestFirst");
    const base = { ...thinRuleOf, excludedTags: [] };
    const from = start + 2_000_000 + 25_000;
    const manyRule: FeedRule = { ...base, includedTags: TEN, startDate: from, endDate: start + 2_000_000 + 375_000 };
    const manyExpected = many.filter((_, i) => i >= 25 && i <= 375).map((e) => e.id);
    const denseRule: FeedRule = { ...base, includedTags: ["dpdense"] };
    const denseExpected = dense.map((e) => e.id);
    // any of three tags, every echo matching, one in ten found by two streams
    const three = [TEN[0]!, TEN[3]!, TEN[5]!];
    const threeRule: FeedRule = { ...base, includedTags: three };
    const threeExpected = many.filter((e) => e.tags.some((t) => three.includes(t))).map((e) => e.id);

    const thinScroll = await builtIndex(me, thinRuleOf);
    const manyBuilt = await builtIndex(me, manyRule);
    // the cron's pass checks the indexes against the engine (and keeps them to their cap)
    await repairIndexes(app(), app().db);
    const population = [
      { label: "sparse, built", scroll: thinScroll, expected: thin.map((m) => m.id) },
      { label: "any of 10 with dates, built", scroll: manyBuilt, expected: manyExpected },
      { label: "dense, capped", scroll: await cappedIndex(me, denseRule, denseExpected, 50), expected: denseExpected },
      // the page across its frontier (page 3: 5 entries, then the engine's entries read without
      // numbering in the rows the index part left: decision 020, "Past the frontier, full")
      { label: "any of 3, capped", scroll: await cappedIndex(me, threeRule, threeExpected, 45), expected: threeExpected },
    ];
    let maxRows = 0;
    for (const { label, scroll, expected } of population) {
      for (const byNumber of [false, true]) maxRows = Math.max(maxRows, (await pageToTheEnd({ env, viewerId: me, scrollId: scroll, expected, byNumber, label: `${label}${byNumber ? " by number" : ""}` })).maxRows);
    }
    // While an extension is pending (decision 020, "Past the frontier, full"; no queue here, so it
    // never lands): past the index's frontier (at 70) a rule of more than 5 streams is read by a
    // scan of ids and the echos by id — full pages (they were 16 of 20 from the engine's numbered
    // window). feed-index-extend.test.ts runs the extension, feed-index-pending.test.ts more rules.
    const capped = await cappedIndex(me, { ...manyRule, endDate: manyRule.endDate! + 1 }, manyExpected, 70);
    for (const byNumber of [false, true]) maxRows = Math.max(maxRows, (await pageToTheEnd({ env, viewerId: me, scrollId: capped, expected: manyExpected, byNumber, label: `any of 10, capped${byNumber ? " by number" : ""}` })).maxRows);
    console.warn(`oldest-first depth: ${population.length + 1} feeds to their end, max rows a page ${maxRows}`);
  });
});
