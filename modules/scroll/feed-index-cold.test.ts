// A cold isolate's first page past an index's frontier is full (issue 27, decision 020 "A cold
// isolate's first page"). Indexes built by the backfill with a small cap (90 where the bench keeps
// 10,000) over rules of more than 5 streams — one echo in three carries two of the rule's tags,
// one in seven three — with the queue's consumer never run (every extension the pages ask for
// stays pending). Every page is read by a new isolate (its hints forgotten, as a new isolate
// starts): straight past the frontier by cursor and by number, and the page that crosses it. Each
// page full, each match once in order, ≤ 2 round trips, ≤ 200 rows, one KV read and no KV write.
// Before, such an isolate spent its first round trip on the scroll's lookup: the page past the
// frontier was the engine's numbered one (11–16 echos), the crossing page ended at the frontier.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { encodeCursor } from "../shared/index";
import { batch, forgetAllHints, select, sql, testAppContext } from "../shared/index.server";
import { baseRule, cappedScroll, keptQueue, measured, writeTenTagEchos } from "./depth-paging.test-support";
import { ruleKeyOf } from "./rule.server";
import type { FeedRule } from "./schema";

const app = () => testAppContext(env);
const CAP = 90;
const hintKey = (scrollId: string) => `feed-hint:1:${scrollId}`;

/** The test env with its queue kept (never drained) and its KV calls counted. */
function countedEnv() {
  const { env: queued } = keptQueue(env);
  const kv = { reads: 0, writes: 0 };
  const KV = {
    get: (key: string, type: "json") => (kv.reads++, env.KV.get(key, type)),
    put: (key: string, value: string, options?: KVNamespacePutOptions) => (kv.writes++, env.KV.put(key, value, options)),
  } as unknown as KVNamespace;
  return { env: { ...queued, KV } as Env, kv };
}

/** The hint KV holds for a scroll, once a page's write (in the background) has landed. */
async function hintOf(scrollId: string, rule?: FeedRule): Promise<{ rule: FeedRule } | null> {
  for (let i = 0; i < 40; i++) {
    const hint = await env.KV.get<{ rule: FeedRule }>(hintKey(scrollId), "json");
    if (hint && (!rule || JSON.stringify(hint.rule.includedTags) === JSON.stringify(rule.includedTags))) return hint;
    await new Promise((r) => setTimeout(r, 50));
  }
  return env.KV.get<{ rule: FeedRule }>(hintKey(scrollId), "json");
}

const indexState = async (rule: FeedRule) =>
  (await batch(app().db, [select({ cap: sql<number>`cap`, complete: sql<number>`complete` }, sql`FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)}`)]))[0][0]!;

type Match = { id: string; likes: number };

async function population(me: string, prefix: string) {
  const TEN = Array.from({ length: 10 }, (_, i) => `${prefix}${i}`);
  const echos = await writeTenTagEchos(app(), me, Date.now() - 30_000_000, TEN);
  const matching = (tags: string[]) => echos.filter((e) => e.tags.some((t) => tags.includes(t)));
  const seven = TEN.slice(0, 7);
  const eight = TEN.slice(2, 10);
  return [
    { label: "any of 10, oldest first", rule: { ...baseRule, includedTags: TEN, sortBy: "oldestFirst" } as FeedRule, expected: echos as Match[] },
    { label: "any of 7, newest first", rule: { ...baseRule, includedTags: seven }, expected: matching(seven).reverse() },
    {
      label: "any of 8 less one, most liked",
      rule: { ...baseRule, includedTags: eight, excludedTags: [TEN[4]!], sortBy: "mostLiked" } as FeedRule,
      expected: [...matching(eight)].filter((e) => !e.tags.includes(TEN[4]!)).sort((a, b) => b.likes - a.likes || (a.id < b.id ? 1 : -1)),
    },
  ];
}

describe("a cold isolate's first page past a feed index's frontier", { timeout: 600_000 }, () => {
  it("is full straight past the frontier by cursor and by number, and across it, each page from a new isolate", async () => {
    const me = (await signup(app(), { userName: "cold_me", password: "pass1234" })).user._id;
    let maxRows = 0;
    let pages = 0;
    for (const { label, rule, expected } of await population(me, "cold")) {
      const scrollId = await cappedScroll(app(), me, rule, CAP);
      const cursorAt = (e: Match) => encodeCursor(rule.sortBy === "mostLiked" ? { l: e.likes, id: e.id } : { id: e.id });
      // another isolate read the feed once: its lookup kept the hint (rule and index reach)
      forgetAllHints();
      await measured(countedEnv().env, me, scrollId, 1, undefined);
      expect((await hintOf(scrollId, rule))?.rule, label).toEqual({ ...rule, replies: false });
      const readers = [
        { how: "past the frontier, by cursor", skip: CAP + 37, number: (_: number) => 1 },
        // the 6th page by number: page-bookmarks hands over the cursor page 5 ended on
        { how: "past the frontier, by number", skip: 100, number: (n: number) => 5 + n },
        { how: "crossing the frontier, by cursor", skip: CAP - 7, number: (_: number) => 1 },
        { how: "crossing the frontier, by number", skip: CAP - 13, number: (n: number) => 4 + n },
      ];
      for (const reader of readers) {
        let cursor: string | undefined = cursorAt(expected[reader.skip - 1]!);
        const seen: string[] = [];
        for (let n = 1; n <= 3 && cursor; n++) {
          // a new isolate for every page
          forgetAllHints();
          const { env: cold, kv } = countedEnv();
          const { got, stats } = await measured(cold, me, scrollId, reader.number(n), cursor);
          const at = `${label}, ${reader.how}, page ${n}`;
          expect(stats.roundTrips, at).toBeLessThanOrEqual(2);
          expect(stats.rowsRead, at).toBeLessThanOrEqual(200);
          expect(got.echos.length, at).toBe(Math.min(20, expected.length - reader.skip - seen.length));
          expect(kv, at).toEqual({ reads: 1, writes: 0 });
          seen.push(...got.echos.map((e) => e._id));
          maxRows = Math.max(maxRows, stats.rowsRead);
          pages++;
          cursor = got.pagination.nextCursor ?? undefined;
        }
        expect(seen, `${label}, ${reader.how}`).toEqual(expected.slice(reader.skip, reader.skip + seen.length).map((e) => e.id));
      }
      // nothing drained: the index still stops at its frontier
      expect(Object.values(await indexState(rule)), label).toEqual([CAP, 0]);
    }
    console.warn(`cold isolates: ${pages} pages, every one full, max rows a page ${maxRows}`);
  });

  it("writes a missing or stale hint once, reads it once per isolate, and a stale one costs no more than 2 round trips", async () => {
    const me = (await signup(app(), { userName: "cold_hint", password: "pass1234" })).user._id;
    const { rule, expected } = (await population(me, "hint"))[0]!;
    const scrollId = await cappedScroll(app(), me, rule, CAP);
    const cursor = encodeCursor({ id: expected[CAP + 20 - 1]!.id });
    const want = expected.slice(CAP + 20, CAP + 40).map((e) => e.id);
    // no hint yet (a scroll no isolate read since hints were kept): the page is read as before —
    // the lookup first, one round trip left — and its lookup writes the hint
    forgetAllHints();
    let { env: cold, kv } = countedEnv();
    let { got, stats } = await measured(cold, me, scrollId, 1, cursor);
    expect(stats.roundTrips).toBeLessThanOrEqual(2);
    expect(stats.rowsRead).toBeLessThanOrEqual(200);
    expect(got.echos.map((e) => e._id)).toEqual(want.slice(0, got.echos.length));
    expect(kv).toEqual({ reads: 1, writes: 1 });
    const kept = await hintOf(scrollId);
    expect(kept?.rule.includedTags).toEqual(rule.includedTags);
    // the same isolate's next page: no KV at all
    ({ got, stats } = await measured(cold, me, scrollId, 1, cursor));
    expect(got.echos.map((e) => e._id)).toEqual(want);
    expect(kv).toEqual({ reads: 1, writes: 1 });
    // a stale hint (another rule, as KV may still hold one after an edit elsewhere): the guessed
    // page reads nothing (its guard), the page is read again with the scroll's rule, and the hint
    // is written again, once
    await env.KV.put(hintKey(scrollId), JSON.stringify({ ...kept, rule: { ...kept!.rule, includedTags: ["hint0"] } }));
    forgetAllHints();
    ({ env: cold, kv } = countedEnv());
    ({ got, stats } = await measured(cold, me, scrollId, 1, cursor));
    expect(stats.roundTrips).toBeLessThanOrEqual(2);
    expect(stats.rowsRead).toBeLessThanOrEqual(200);
    expect(got.echos.map((e) => e._id)).toEqual(want.slice(0, got.echos.length));
    expect(kv).toEqual({ reads: 1, writes: 1 });
    expect((await hintOf(scrollId, kept!.rule))?.rule).toEqual(kept!.rule);
    // and the next new isolate reads it: a full page, no write
    forgetAllHints();
    ({ env: cold, kv } = countedEnv());
    ({ got, stats } = await measured(cold, me, scrollId, 1, cursor));
    expect(got.echos.map((e) => e._id)).toEqual(want);
    expect(stats.roundTrips).toBeLessThanOrEqual(2);
    expect(kv).toEqual({ reads: 1, writes: 0 });
    // KV failing or not answering in time: the page is read as before (the lookup first), once
    for (const get of [() => Promise.reject(new Error("KV down")), () => new Promise(() => {})]) {
      forgetAllHints();
      const { env: queued } = keptQueue(env);
      const started = Date.now();
      ({ got, stats } = await measured({ ...queued, KV: { get, put: () => Promise.resolve() } as unknown as KVNamespace }, me, scrollId, 1, cursor));
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(stats.roundTrips).toBeLessThanOrEqual(2);
      expect(got.echos.map((e) => e._id)).toEqual(want.slice(0, got.echos.length));
      expect(got.echos.length).toBeGreaterThan(0);
    }
  });
});
