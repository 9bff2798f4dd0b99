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
import { cappedScroll, keptQueue, measured } from "./depth-paging.test-support";
import { coldReaders, countedEnv, hintKey, hintOf, population } from "./cold-hint.test-support";
import { ruleKeyOf } from "./rule.server";
import type { FeedRule } from "./schema";

const app = () => testAppContext(env);
const CAP = 90;

const indexState = async (rule: FeedRule) =>
  (await batch(app().db, [select({ cap: sql<number>`cap`, complete: sql<number>`complete` }, sql`FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)}`)]))[0][0]!;

describe("a cold isolate's first page past a feed index's frontier", { timeout: 600_000 }, () => {
  it("is full straight past the frontier by cursor and by number, and across it, each page from a new isolate", async () => {
    const me = (await signup(app(), { userName: "cold_me", password: "pass1234" })).user._id;
    let maxRows = 0;
    let pages = 0;
    for (const { label, rule, expected } of await population(me, "cold")) {
      const scrollId = await cappedScroll(app(), me, rule, CAP);
      // another isolate read the feed once: its lookup kept the hint (rule and index reach)
      forgetAllHints();
      await measured(countedEnv().env, me, scrollId, 1, undefined);
      expect((await hintOf(scrollId, rule))?.rule, label).toEqual({ ...rule, replies: false });
      const read = await coldReaders({ me, scrollId, rule, expected, label, cap: CAP });
      maxRows = Math.max(maxRows, read.maxRows);
      pages += read.pages;
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
