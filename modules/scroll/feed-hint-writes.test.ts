// Every feed scroll has its KV hint without a reader (issue 27, decision 020 "Every feed hinted").
// Scrolls that existed before hints were kept — never read since, their rule never edited — get
// theirs from the cron's walk (one run), and then a cold isolate's first page past their index's
// frontier, and across it, is full (it was the engine's numbered page: 11–16 echos, and the
// crossing page ended at the frontier). A scroll whose index is still building is passed by the
// walk; the consumer writes its hint when the backfill makes the index ready. A save writes its
// scroll's with the reach of an index that is ready already. KV writes counted at every step.
import { env } from "cloudflare:workers";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { batch, forgetAllHints, select, sql, testAppContext } from "../shared/index.server";
import { cappedScroll, keptQueue, measured } from "./depth-paging.test-support";
import { coldReaders, countedEnv, cursorAt, hintKey, hintOf, population } from "./cold-hint.test-support";
import { HINT_REFRESH_MS, keepFeedHints } from "./feed-hint-writes.server";
import { consumeChanges } from "./feed-index-consumer.server";
import { indexStatements } from "./feed-index.server";
import { feedScroll } from "./thin-matches.test-support";
import { createScroll, updateScroll } from "./writes.server";
import { forkScroll } from "./fork.server";
import { newId } from "../shared/index";
import { ruleKeyOf } from "./rule.server";
import { CreateScrollSchema, UpdateScrollSchema } from "./schema";

const app = () => testAppContext(env);
const CAP = 90;

const feedScrolls = async () => (await batch(app().db, [select({ n: sql<number>`count(*)` }, sql`FROM scrolls WHERE type = 'feed'`)]))[0][0]!.n;

/** One cron run of the hint walk, its KV writes counted. */
async function cronRun(now = Date.now(), perPass?: number) {
  const { env: counted, kv } = countedEnv();
  const ran = await keepFeedHints(testAppContext(counted), app().db, now, perPass);
  return { ...ran, writes: kv.writes };
}

describe("every feed scroll's hint, kept without a reader", { timeout: 600_000 }, () => {
  it("scrolls never read: one cron run writes their hints, and a cold isolate's first page past and across the frontier is full", async () => {
    const me = (await signup(app(), { userName: "hintwalk_me", password: "pass1234" })).user._id;
    const feeds = await population(me, "walk");
    const scrolls = [];
    for (const feed of feeds) scrolls.push({ ...feed, scrollId: await cappedScroll(app(), me, feed.rule, CAP) });
    // written as rows (as a store from before hints was): no hint in KV
    for (const { scrollId } of scrolls) expect(await env.KV.get(hintKey(scrollId))).toBeNull();
    const all = await feedScrolls();
    const first = await cronRun();
    expect(first.writes).toBe(all);
    expect(first.hinted).toBe(all);
    // the walk rests at the newest scroll: the next run writes nothing
    expect((await cronRun()).writes).toBe(0);
    let maxRows = 0;
    let pages = 0;
    for (const { label, rule, expected, scrollId } of scrolls) {
      expect((await hintOf(scrollId))?.rule, label).toEqual({ ...rule, replies: false });
      const read = await coldReaders({ me, scrollId, rule, expected, label, cap: CAP });
      maxRows = Math.max(maxRows, read.maxRows);
      pages += read.pages;
    }
    // KV slower than the 100 ms the first batch waits (or failing): the page is read as before —
    // its lookup first, one round trip left — within budget, in order, never empty (the fallback)
    const fallback: number[] = [];
    for (const { label, rule, expected, scrollId } of scrolls) {
      forgetAllHints();
      const slow = { ...keptQueue(env).env, KV: { get: () => new Promise(() => {}), put: () => Promise.resolve() } } as unknown as Env;
      const skip = CAP + 37;
      const { got, stats } = await measured(slow, me, scrollId, 1, cursorAt(rule, expected[skip - 1]!));
      expect(stats.roundTrips, label).toBeLessThanOrEqual(2);
      expect(stats.rowsRead, label).toBeLessThanOrEqual(200);
      expect(got.echos.length, label).toBeGreaterThan(0);
      expect(got.echos.map((e) => e._id), label).toEqual(expected.slice(skip, skip + got.echos.length).map((e) => e.id));
      fallback.push(got.echos.length);
    }
    console.warn(`KV over 100 ms, the first page past the frontier: ${fallback.join(", ")} echos of 20`);
    // a scroll made later (as rows): the next run finds it, and writes its hint alone
    const later = await cappedScroll(app(), me, feeds[1]!.rule, CAP);
    expect((await cronRun()).writes).toBe(1);
    expect((await hintOf(later))?.rule).toEqual({ ...feeds[1]!.rule, replies: false });
    // a run of 2 a pass walks in steps; HINT_REFRESH_MS after the walk began, every hint again
    const refresh = Date.now() + HINT_REFRESH_MS + 1;
    let again = 0;
    for (let run = 0; run < 10 && again < all + 1; run++) {
      const step = await cronRun(refresh + run, 2);
      expect(step.writes).toBeLessThanOrEqual(2);
      again += step.writes;
    }
    expect(again).toBe(all + 1);
    console.warn(`hinted by the cron: ${all} scrolls in one run; ${pages} cold pages, every one full, max rows a page ${maxRows}`);
  });

  it("an index made ready by its backfill: the consumer writes its scrolls' hints; a save, an edit or a fork of its rule writes the reach", async () => {
    const me = (await signup(app(), { userName: "hintready_me", password: "pass1234" })).user._id;
    const { rule, expected } = (await population(me, "ready"))[1]!;
    const key = ruleKeyOf(rule);
    const ids = [newId(Date.now()), newId(Date.now() + 1)];
    await batch(app().db, [...indexStatements(rule, sql`1`), ...ids.map((id) => feedScroll(id, me, rule, key))]);
    // building: the cron's walk passes them (their consumer writes them)
    await cronRun();
    for (const id of ids) expect(await env.KV.get(hintKey(id))).toBeNull();
    const { env: counted, kv } = countedEnv();
    let done = await consumeChanges(testAppContext(counted), app().db, [{ type: "backfill", ruleKey: key, cursor: null }]);
    expect(done.hinted).toBe(2);
    expect(kv.writes).toBe(2);
    for (const id of ids) expect((await hintOf(id))?.reach).toEqual({ complete: true, floor: null, near: null });
    // a repeated message (the index is ready): nothing written
    done = await consumeChanges(testAppContext(counted), app().db, [{ type: "backfill", ruleKey: key, cursor: null }]);
    expect([done.hinted, kv.writes]).toEqual([0, 2]);
    // a cold isolate's first page: one KV read, no write, one round trip, full
    forgetAllHints();
    const cold = countedEnv();
    const { got, stats } = await measured(cold.env, me, ids[0]!, 1, undefined);
    expect(got.echos.map((e) => e._id)).toEqual(expected.slice(0, 20).map((e) => e.id));
    expect([stats.roundTrips, cold.kv.reads, cold.kv.writes]).toEqual([1, 1, 0]);
    // a new scroll of the same rule: its save writes its hint with the ready index's reach
    const saved = countedEnv();
    const input = v.parse(CreateScrollSchema, { name: "same rule", type: "feed", feedConfig: { includedTags: rule.includedTags } });
    const scroll = await createScroll(testAppContext(saved.env), me, input);
    expect(saved.kv.writes).toBe(1);
    expect((await hintOf(scroll._id))?.reach).toEqual({ complete: true, floor: null, near: null });
    // and the hint the save wrote is the one its lookup finds: a cold read uses it and keeps it
    forgetAllHints();
    const again = countedEnv();
    const read = await measured(again.env, me, scroll._id, 1, undefined);
    expect(read.got.echos.map((e) => e._id)).toEqual(expected.slice(0, 20).map((e) => e.id));
    expect([read.stats.roundTrips, again.kv.reads, again.kv.writes]).toEqual([1, 1, 0]);
    // a rule edit: to a rule whose index is building, the hint names it (no reach); back to the
    // rule whose index is ready, the hint carries its reach, and a cold read uses it
    const other = (await population(me, "edited"))[0]!.rule;
    const edit = (includedTags: string[]) => updateScroll(testAppContext(env), me, scroll._id, v.parse(UpdateScrollSchema, { feedConfig: { includedTags } }));
    await edit(other.includedTags);
    expect(await hintOf(scroll._id, other)).toMatchObject({ rule: { includedTags: other.includedTags }, reach: null });
    await edit(rule.includedTags);
    expect(await hintOf(scroll._id, rule)).toMatchObject({ rule: { includedTags: rule.includedTags }, reach: { complete: true } });
    forgetAllHints();
    const edited = countedEnv();
    const after = await measured(edited.env, me, scroll._id, 1, undefined);
    expect(after.got.echos.map((e) => e._id)).toEqual(expected.slice(0, 20).map((e) => e.id));
    expect([after.stats.roundTrips, edited.kv.reads, edited.kv.writes]).toEqual([1, 1, 0]);
    // a fork: its hint written with the shared index's reach, used by its first cold read
    const forking = countedEnv();
    const fork = await forkScroll(testAppContext(forking.env), me, scroll._id);
    expect(forking.kv.writes).toBe(1);
    expect((await hintOf(fork._id, rule))?.reach).toEqual({ complete: true, floor: null, near: null });
    forgetAllHints();
    const forked = countedEnv();
    const fromFork = await measured(forked.env, me, fork._id, 1, undefined);
    expect(fromFork.got.echos.map((e) => e._id)).toEqual(expected.slice(0, 20).map((e) => e.id));
    expect([fromFork.stats.roundTrips, forked.kv.reads, forked.kv.writes]).toEqual([1, 1, 0]);
  });
});
