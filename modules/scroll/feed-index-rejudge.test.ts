// A dense rule is judged once by its backfill (its first 500 matches); when its matches thin out
// later, a reader's engine window no longer fills a screen. The repair pass judges dense rules
// again (REJUDGE_MS after the last time) and builds a thinned one as a sparse index, whose pages
// then come from the index, full; a rule still dense stays as it is (decision 020).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, select, sql, testAppContext } from "../shared/index.server";
import { backfillStep, indexStatements, repairIndexes, ruleTerms, SPARSE_CAP } from "./feed-index.server";
import { scrollEchos } from "./pages.server";
import { ruleKeyOf } from "./rule.server";
import { feedScroll, thinRule, writeThinMatches } from "./thin-matches.test-support";
import type { FeedRule } from "./schema";

const app = () => testAppContext(env);
const DAY = 86_400_000;

/** Its index as markDense leaves it (no entries, no terms, ready, cap 0), judged `age` ago. */
async function denseIndex(rule: FeedRule, creatorId: string, judgedAt: number) {
  const key = ruleKeyOf(rule);
  const scrollId = newId(Date.now());
  await batch(app().db, [
    ...indexStatements(rule, sql`1`),
    sql`DELETE FROM feed_rule_terms WHERE index_id = (SELECT id FROM feed_indexes WHERE rule_key = ${key})`,
    sql`UPDATE feed_indexes SET state = 'ready', cap = 0, complete = 0, checked_at = ${judgedAt} WHERE rule_key = ${key}`,
    feedScroll(scrollId, creatorId, rule, key),
  ]);
  return scrollId;
}

const indexOf = async (rule: FeedRule) => {
  const [rows, terms] = await batch(app().db, [
    select(
      { state: sql<string>`state`, cap: sql<number>`cap`, complete: sql<number>`complete`, checkedAt: sql<number>`checked_at`, entries: sql<number>`(SELECT count(*) FROM feed_index_entries WHERE index_id = feed_indexes.id)` },
      sql`FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)}`,
    ),
    select({ term: sql<string>`term` }, sql`FROM feed_rule_terms WHERE index_id = (SELECT id FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)})`),
  ]);
  return { ...rows[0]!, terms: terms.map((t) => t.term).sort() };
};

describe("dense rules judged again", { timeout: 60_000 }, () => {
  it("a dense rule whose matches thinned is built again as a sparse index; one still dense stays", async () => {
    const me = (await signup(app(), { userName: "rejudge_me", password: "pass1234" })).user._id;
    const now = Date.now();
    const thinned = thinRule("thinned", "newestFirst");
    const matches = await writeThinMatches(app(), me, "thinned", 130, now - 1_000_000);
    // still dense: every echo of its tag matches (nothing excluded)
    const dense: FeedRule = { ...thinRule("everyone", "newestFirst"), excludedTags: [] };
    await writeThinMatches(app(), me, "everyone", 30, now - 2_000_000);
    const thinnedScroll = await denseIndex(thinned, me, now - 2 * DAY);
    await denseIndex(dense, me, now - 2 * DAY);
    // judged recently: not due yet
    const recent = thinRule("recent", "newestFirst");
    await writeThinMatches(app(), me, "recent", 30, now - 3_000_000);
    await denseIndex(recent, me, now - 60_000);

    // before: the thinned rule's page comes from the engine's window, short with more to come
    const before = await scrollEchos(app(), me, thinnedScroll, { page: 1, limit: 20 });
    expect(before.echos.length).toBeLessThan(20);

    const repaired = await repairIndexes(app(), app().db, now);
    expect(repaired.rejudged).toBe(2);
    expect(repaired.thinned).toBe(1);
    expect(await indexOf(thinned)).toMatchObject({ state: "building", cap: SPARSE_CAP, terms: ruleTerms(thinned).sort() });
    expect(await indexOf(dense)).toMatchObject({ state: "ready", cap: 0, checkedAt: now, terms: [] });
    expect(await indexOf(recent)).toMatchObject({ state: "ready", cap: 0, checkedAt: now - 60_000 });

    // the backfill the pass sent (run here step by step): every match kept, complete
    for (let step = 0; step < 20 && (await backfillStep(app().db, ruleKeyOf(thinned), now)); step++);
    expect(await indexOf(thinned)).toMatchObject({ state: "ready", complete: 1, entries: 130 });
    // this isolate last saw the index dense: its next read learns the new state (from the engine,
    // as any index's first read after it was built), the one after reads the index
    await scrollEchos(app(), me, thinnedScroll, { page: 1, limit: 20 });
    const after = await scrollEchos(app(), me, thinnedScroll, { page: 1, limit: 20 });
    expect(after.feedIndex).toBe("ready");
    expect(after.echos.map((e) => e._id)).toEqual(matches.slice(-20).reverse().map((m) => m.id));
  });
});
