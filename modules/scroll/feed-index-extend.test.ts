// Pages past an index's frontier are full (issue 27, decision 020 "Deeper on demand"). Indexes are
// built by the backfill with a small cap (100 where the bench keeps 10,000) over generated rules —
// any of 10 and any of 7 tags (more than 5 streams: the engine's window there is 16 entries), any
// of 3 most liked, an echo carrying two or three of a rule's tags found by two or three streams —
// and paged to their end by cursor and by number, the queue's consumer running between a reader's
// pages as it runs beside them: a page past the near marker asks for another slice, which lands
// before the reader meets the frontier. Every page is full, each match once in order, ≤ 2 round
// trips, ≤ 200 rows. Without the extension the pages past the frontier are the engine's (16 of 20).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { batch, select, sql, testAppContext } from "../shared/index.server";
import { extendStep, shrinkExtended } from "./feed-index-extend.server";
import { baseRule, cappedScroll, keptQueue, pageToTheEnd, writeTenTagEchos } from "./depth-paging.test-support";
import { ruleKeyOf } from "./rule.server";
import type { FeedRule } from "./schema";

const app = () => testAppContext(env);
/** The test's INDEX_CAP, and the slice an extension adds. The near marker stands CAP / 2 = 50
 * entries before the frontier, more than two pages: the page after the one that asked reads the
 * index's state again, so the isolate knows the new frontier before its reader meets the old one
 * (as 2,000 entries ahead do with the bench's cap). */
const CAP = 100;
const SLICE = 100;

const { env: queued, sent } = keptQueue(env);

/** The consumer's extension steps over what the readers' pages sent, until nothing is left. */
async function drain(): Promise<number> {
  let steps = 0;
  for (let c = sent.shift(); c !== undefined; c = sent.shift()) {
    if (c.type !== "extend") continue;
    steps++;
    for (let next = await extendStep(app().db, c, Date.now(), undefined, SLICE); next; next = await extendStep(app().db, next as typeof c, Date.now(), undefined, SLICE));
  }
  return steps;
}

const base = baseRule;
/** A scroll of `rule` whose index the backfill builds with cap CAP. */
const built = (creatorId: string, rule: FeedRule) => cappedScroll(app(), creatorId, rule, CAP);

const indexOf = async (rule: FeedRule) =>
  (
    await batch(app().db, [
      select(
        { cap: sql<number>`cap`, complete: sql<number>`complete`, near: sql<string | null>`near`, entries: sql<number>`(SELECT count(*) FROM feed_index_entries WHERE index_id = feed_indexes.id)` },
        sql`FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)}`,
      ),
    ])
  )[0][0]!;

describe("a feed index past its frontier", { timeout: 600_000 }, () => {
  it("reaches deeper on demand: every page full, by cursor and by number, each match once, within budget", async () => {
    const me = (await signup(app(), { userName: "extend_me", password: "pass1234" })).user._id;
    const start = Date.now() - 20_000_000;
    const TEN = Array.from({ length: 10 }, (_, i) => `xt${i}`);
    const echos = await writeTenTagEchos(app(), me, start, TEN);
    const matching = (tags: string[]) => echos.filter((e) => e.tags.some((t) => tags.includes(t)));
    const seven = TEN.slice(0, 7);
    const three = [TEN[0]!, TEN[3]!, TEN[5]!];
    const population: { label: string; rule: FeedRule; expected: string[] }[] = [
      { label: "any of 10, oldest first", rule: { ...base, includedTags: TEN, sortBy: "oldestFirst" }, expected: echos.map((e) => e.id) },
      { label: "any of 7, newest first", rule: { ...base, includedTags: seven }, expected: matching(seven).map((e) => e.id).reverse() },
      {
        label: "any of 3, most liked",
        rule: { ...base, includedTags: three, sortBy: "mostLiked" },
        expected: [...matching(three)].sort((a, b) => b.likes - a.likes || (a.id < b.id ? 1 : -1)).map((e) => e.id),
      },
    ];
    let maxRows = 0;
    let extensions = 0;
    let last: FeedRule | null = null;
    for (const { label, rule, expected } of population) {
      for (const byNumber of [false, true]) {
        // a fresh index for each reader (an end date after every echo: another rule key), capped
        // at CAP, its near marker CAP / 2 before its frontier
        const readerRule = { ...rule, endDate: byNumber ? start + 1_000_000_000 : null };
        const scrollId = await built(me, readerRule);
        const fresh = await indexOf(readerRule);
        expect([fresh.complete, fresh.cap, fresh.entries], label).toEqual([0, CAP, CAP]);
        expect(fresh.near, label).not.toBeNull();
        sent.length = 0;
        const got = await pageToTheEnd({
          env: queued,
          viewerId: me,
          scrollId,
          expected,
          byNumber,
          label: `${label}${byNumber ? " by number" : ""}`,
          afterPage: async () => void (extensions += await drain()),
        });
        maxRows = Math.max(maxRows, got.maxRows);
        // the index now holds the feed (its last slice reached the end): complete
        const grown = await indexOf(readerRule);
        expect([grown.complete, grown.entries], label).toEqual([1, expected.length]);
        last = readerRule;
      }
    }
    expect(extensions).toBeGreaterThan(0);
    // storage bounded: a day after its last extension an index gives back a slice a pass
    const before = await indexOf(last!);
    await batch(app().db, [sql`UPDATE feed_indexes SET updated_at = ${Date.now() - 25 * 3_600_000} WHERE rule_key = ${ruleKeyOf(last!)}`]);
    expect(await shrinkExtended(app().db, Date.now(), CAP, SLICE)).toBeGreaterThanOrEqual(1);
    const after = await indexOf(last!);
    const kept = Math.max(CAP, before.cap - SLICE);
    expect(before.cap).toBeGreaterThan(CAP);
    expect([after.complete, after.cap, after.entries]).toEqual([0, kept, kept]);
    expect(after.near).not.toBeNull();
    console.warn(`extend: ${population.length * 2} readers to their feed's end, ${extensions} extensions, max rows a page ${maxRows}`);
  });
});
