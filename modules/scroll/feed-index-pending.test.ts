// Pages past an index's frontier while its extension is pending are full (issue 27, decision 020
// "Past the frontier, full"). Indexes built by the backfill with a small cap (100 where the bench
// keeps 10,000; its frontier falls mid-page) over rules of more than 5 streams — any of 10 tags oldest first, any of 7 newest
// first, any of 8 most liked; one echo in three carries two of the rule's tags, one in seven three,
// so two or three streams find it — are paged to their end by cursor and by number, and from a
// cursor handed over from another client past the frontier, with the queue's consumer never run:
// every extension the pages ask for stays pending, so every page past the frontier is the engine's.
// Every page full, each match once in order, ≤ 2 round trips, ≤ 200 rows. Before, the engine's
// numbered window there held 16 entries: pages of 10–16 echos.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { encodeCursor } from "../shared/index";
import { batch, select, sql, testAppContext, type Change } from "../shared/index.server";
import { aheadOf } from "./feed-index.server";
import { markNear } from "./feed-index-extend.server";
import { scrollEchos } from "./pages.server";
import { baseRule, cappedScroll, keptQueue, pageToTheEnd, writeEchos, writeTenTagEchos } from "./depth-paging.test-support";
import { ruleKeyOf } from "./rule.server";
import type { FeedRule } from "./schema";

const app = () => testAppContext(env);
const CAP = 90;

const { env: queued, sent } = keptQueue(env);
const base = baseRule;
const built = (creatorId: string, rule: FeedRule) => cappedScroll(app(), creatorId, rule, CAP);

const stateOf = async (rule: FeedRule) =>
  (await batch(app().db, [select({ cap: sql<number>`cap`, complete: sql<number>`complete` }, sql`FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)}`)]))[0][0]!;

describe("a feed index past its frontier, the extension pending", { timeout: 600_000 }, () => {
  it("answers full pages by cursor, by number and from a handed-over cursor, each match once, within budget", async () => {
    const me = (await signup(app(), { userName: "pending_me", password: "pass1234" })).user._id;
    const start = Date.now() - 20_000_000;
    const TEN = Array.from({ length: 10 }, (_, i) => `pd${i}`);
    const echos = await writeTenTagEchos(app(), me, start, TEN);
    const matching = (tags: string[]) => echos.filter((e) => e.tags.some((t) => tags.includes(t)));
    const seven = TEN.slice(0, 7);
    const eight = TEN.slice(2, 10);
    const population: { label: string; rule: FeedRule; expected: { id: string; likes: number }[] }[] = [
      { label: "any of 10, oldest first", rule: { ...base, includedTags: TEN, sortBy: "oldestFirst" }, expected: echos },
      { label: "any of 7, newest first", rule: { ...base, includedTags: seven }, expected: matching(seven).reverse() },
      {
        label: "any of 8, most liked",
        rule: { ...base, includedTags: eight, sortBy: "mostLiked" },
        expected: [...matching(eight)].sort((a, b) => b.likes - a.likes || (a.id < b.id ? 1 : -1)),
      },
    ];
    let maxRows = 0;
    let pages = 0;
    for (const { label, rule, expected } of population) {
      const cursorAt = (e: { id: string; likes: number }) => encodeCursor(rule.sortBy === "mostLiked" ? { l: e.likes, id: e.id } : { id: e.id });
      // three readers, each of a fresh index (an end date after every echo: another rule key)
      const readers = [
        { how: "by cursor", byNumber: false, skip: 0 },
        { how: "by number", byNumber: true, skip: 0 },
        // a cursor from another client, 37 matches past the frontier
        { how: "from a handed-over cursor", byNumber: false, skip: CAP + 37 },
      ];
      for (const [n, reader] of readers.entries()) {
        const readerRule = { ...rule, endDate: start + 1_000_000_000 + n };
        const scrollId = await built(me, readerRule);
        expect(Object.values(await stateOf(readerRule)), label).toEqual([CAP, 0]);
        sent.length = 0;
        const got = await pageToTheEnd({
          env: queued,
          viewerId: me,
          scrollId,
          expected: expected.slice(reader.skip).map((e) => e.id),
          byNumber: reader.byNumber,
          label: `${label} ${reader.how}`,
          from: reader.skip > 0 ? cursorAt(expected[reader.skip - 1]!) : undefined,
        });
        maxRows = Math.max(maxRows, got.maxRows);
        pages += got.sizes.length;
        // nothing drained: the index still stops at its frontier, the extensions asked for wait
        expect(Object.values(await stateOf(readerRule)), label).toEqual([CAP, 0]);
        expect(sent.some((c) => c.type === "extend"), label).toBe(true);
      }
    }
    console.warn(`pending: ${population.length * 3} readers, ${pages} pages, max rows a page ${maxRows}`);
  });

  it("gives an index built before its near marker existed the marker from its first reader's page, in one consumer batch", async () => {
    const me = (await signup(app(), { userName: "pending_mark", password: "pass1234" })).user._id;
    const start = Date.now() - 40_000_000;
    const tags = ["pm0", "pm1", "pm2", "pm3", "pm4", "pm5"];
    const echos = await writeEchos(app(), me, start, 300, (i) => [tags[i % 6]!]);
    const rules = [0, 1, 2].map((n): FeedRule => ({ ...base, includedTags: tags, endDate: start + 2_000_000_000 + n }));
    const scrolls = [];
    for (const rule of rules) scrolls.push(await built(me, rule));
    // as migration 0036 found them: no marker
    const keys = JSON.stringify(rules.map(ruleKeyOf));
    await batch(app().db, [sql`UPDATE feed_indexes SET near = NULL, near_rank = NULL WHERE rule_key IN (SELECT value FROM json_each(${keys}))`]);
    sent.length = 0;
    for (const id of scrolls) await scrollEchos(testAppContext(queued), me, id, { page: 1, limit: 20 });
    const marks = sent.filter((c): c is Extract<Change, { type: "mark" }> => c.type === "mark");
    expect(marks.length).toBe(rules.length);
    // once per index from an isolate: another page asks nothing more
    await scrollEchos(testAppContext(queued), me, scrolls[0]!, { page: 1, limit: 20 });
    expect(sent.filter((c) => c.type === "mark").length).toBe(rules.length);
    expect(await markNear(app().db, marks)).toBe(rules.length);
    // each marker stands aheadOf(cap) entries before the frontier (the newest first: the CAP-th
    // newest echo is the frontier, the marker aheadOf(CAP) newer)
    const newest = [...echos].reverse();
    const [rows] = await batch(app().db, [select({ near: sql<string | null>`near` }, sql`FROM feed_indexes WHERE rule_key IN (SELECT value FROM json_each(${keys}))`)]);
    expect(rows.map((r) => r.near)).toEqual(rules.map(() => newest[CAP - 1 - aheadOf(CAP)]!.id));
    // a repeat finds nothing left to mark
    expect(await markNear(app().db, marks)).toBe(0);
  });
});
