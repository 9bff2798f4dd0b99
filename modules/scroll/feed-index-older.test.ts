// Indexes of older builds (decision 020, "No dense rules"): a rule once judged dense kept an
// empty index (cap 0, no terms, ready, no frontier), and an index built in one backfill message
// kept the column's default cap (500), which the repair pass's check then cut it to. Now every
// rule keeps up to INDEX_CAP: the empty one reaches nowhere (its pages come from the engine) until
// the repair pass builds it again; an incomplete one cut at 500 is built again; a complete one
// with the old default keeps every entry.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, select, sql, testAppContext } from "../shared/index.server";
import { INDEX_CAP, indexStatements, ruleTerms } from "./feed-index.server";
import { backfillStep } from "./feed-index-backfill.server";
import { repairIndexes } from "./feed-index-repair.server";
import { scrollEchos } from "./pages.server";
import { ruleKeyOf } from "./rule.server";
import { feedScroll, thinRule, writeThinMatches } from "./thin-matches.test-support";
import type { FeedRule } from "./schema";

const app = () => testAppContext(env);

const indexOf = async (rule: FeedRule) => {
  const [rows, terms] = await batch(app().db, [
    select(
      {
        state: sql<string>`state`,
        cap: sql<number>`cap`,
        complete: sql<number>`complete`,
        entries: sql<number>`(SELECT count(*) FROM feed_index_entries WHERE index_id = feed_indexes.id)`,
      },
      sql`FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)}`,
    ),
    select({ term: sql<string>`term` }, sql`FROM feed_rule_terms WHERE index_id = (SELECT id FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)})`),
  ]);
  return { ...rows[0]!, terms: terms.map((t) => t.term).sort() };
};

async function scrollOf(rule: FeedRule, creatorId: string, older: ReturnType<typeof sql>[]) {
  const scrollId = newId(Date.now());
  await batch(app().db, [...indexStatements(rule, sql`1`), ...older, feedScroll(scrollId, creatorId, rule, ruleKeyOf(rule))]);
  return scrollId;
}

const build = async (rule: FeedRule) => {
  for (let step = 0; step < 20 && (await backfillStep(app().db, ruleKeyOf(rule))); step++);
};

describe("feed indexes of older builds", { timeout: 120_000 }, () => {
  it("an index kept empty as dense is read from the engine, then built again by the repair pass", async () => {
    const me = (await signup(app(), { userName: "older_dense", password: "pass1234" })).user._id;
    const rule = thinRule("olderdense", "newestFirst");
    const matches = await writeThinMatches(app(), me, "olderdense", 130, Date.now() - 1_000_000);
    const newest = [...matches].reverse().map((m) => m.id);
    const key = ruleKeyOf(rule);
    // as markDense left it: no entries, no terms, ready, cap 0
    const scrollId = await scrollOf(rule, me, [
      sql`DELETE FROM feed_rule_terms WHERE index_id = (SELECT id FROM feed_indexes WHERE rule_key = ${key})`,
      sql`UPDATE feed_indexes SET state = 'ready', cap = 0, complete = 0, floor = NULL WHERE rule_key = ${key}`,
    ]);
    // the engine's window of these thin matches: short, but never the empty page an index that
    // holds nothing would answer
    const before = await scrollEchos(app(), me, scrollId, { page: 1, limit: 20 });
    expect(before.echos.length).toBeGreaterThan(0);
    expect(before.echos.map((e) => e._id)).toEqual(newest.slice(0, before.echos.length));

    const repaired = await repairIndexes(app(), app().db);
    expect(repaired.older).toBe(1);
    expect(await indexOf(rule)).toMatchObject({ state: "building", cap: INDEX_CAP, terms: ruleTerms(rule).sort() });
    await build(rule);
    expect(await indexOf(rule)).toMatchObject({ state: "ready", complete: 1, cap: INDEX_CAP, entries: 130 });
    await scrollEchos(app(), me, scrollId, { page: 1, limit: 20 });
    const after = await scrollEchos(app(), me, scrollId, { page: 1, limit: 20 });
    expect(after.feedIndex).toBe("ready");
    expect(after.echos.map((e) => e._id)).toEqual(newest.slice(0, 20));
    // a second pass finds nothing more to rebuild
    expect((await repairIndexes(app(), app().db)).older).toBe(0);
  });

  it("an index cut at the old default cap is built again; a complete one keeps every entry", async () => {
    const me = (await signup(app(), { userName: "older_cut", password: "pass1234" })).user._id;
    const matches = await writeThinMatches(app(), me, "oldercut", 600, Date.now() - 10_000_000);
    const oldest = matches.map((m) => m.id);
    // complete, built in one message: 600 entries under the column's default cap
    const whole = thinRule("oldercut", "oldestFirst");
    await scrollOf(whole, me, []);
    await build(whole);
    await batch(app().db, [sql`UPDATE feed_indexes SET cap = 500 WHERE rule_key = ${ruleKeyOf(whole)}`]);
    // the same matches newest first, as the check cut it: its first 500, frontier at the 500th
    const cut = thinRule("oldercut", "newestFirst");
    const cutKey = ruleKeyOf(cut);
    const newest = [...oldest].reverse();
    await scrollOf(cut, me, [
      ...newest.slice(0, 500).map((id) => sql`INSERT INTO feed_index_entries (index_id, rank, echo_id) SELECT id, 0, ${id} FROM feed_indexes WHERE rule_key = ${cutKey}`),
      sql`UPDATE feed_indexes SET state = 'ready', cap = 500, complete = 0, floor = ${newest[499]!} WHERE rule_key = ${cutKey}`,
    ]);

    const repaired = await repairIndexes(app(), app().db);
    expect(repaired.older).toBe(1);
    expect(repaired.trimmed).toBe(0);
    expect(await indexOf(whole)).toMatchObject({ state: "ready", complete: 1, entries: 600 });
    expect(await indexOf(cut)).toMatchObject({ state: "building", cap: INDEX_CAP });
    await build(cut);
    expect(await indexOf(cut)).toMatchObject({ state: "ready", complete: 1, cap: INDEX_CAP, entries: 600 });
  });
});
