// The repair pass's sweep of windowed indexes (feed-index-aging.server.ts; decision 034, "Windowed
// rules bounded"): entries whose echos left a most-liked rule's day are taken out whatever the
// passes before did — a store that no pass ever swept (a bench store, every store before this
// build), a cron gap of two hours, and one of two days, caught up a day a pass. The sweep before
// removed a fixed 15-minute band before the window's start: each case below left entries behind.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, sql, testAppContext } from "../shared/index.server";
import { indexStatements } from "./feed-index.server";
import { sweepAged } from "./feed-index-aging.server";
import { repairIndexes } from "./feed-index-repair.server";
import { ruleKeyOf } from "./rule.server";
import { baseRule } from "./depth-paging.test-support";
import { feedScroll } from "./thin-matches.test-support";
import type { FeedRule } from "./schema";

const app = () => testAppContext(env);
const DAY = 86_400_000;
const HOUR = 3_600_000;
const T = Date.now();

/** A ready, complete "most liked, last day" index of `tag` holding an entry for each of `times` (ids made at those times). */
async function dayIndex(tag: string, times: number[]) {
  const rule: FeedRule = { ...baseRule, includedTags: [tag], sortBy: "mostLiked", sortTimeRange: "1day" };
  const key = ruleKeyOf(rule);
  const ids = times.map((t) => newId(t));
  const author = (await signup(app(), { userName: `${tag}_a`, password: "pass1234" })).user._id;
  const tags = JSON.stringify([tag]);
  await batch(app().db, [
    sql`INSERT INTO tags (name, created_at) VALUES (${tag}, 0)`,
    // the echos themselves, as the repair pass's rank sweep checks entries against them
    ...ids.flatMap((id, i) => [
      sql`INSERT INTO echos (id, author_id, content, tags, created_at, likes_count) VALUES (${id}, ${author}, ${`echo ${i}`}, ${tags}, ${times[i]!}, ${i % 7})`,
      sql`INSERT INTO echo_tags (tag, echo_id, tags, likes_count) VALUES (${tag}, ${id}, ${tags}, ${i % 7})`,
    ]),
    ...indexStatements(rule, sql`1`),
    sql`UPDATE feed_indexes SET state = 'ready', complete = 1 WHERE rule_key = ${key}`,
    // a scroll reads it (the repair pass drops indexes none reads)
    feedScroll(newId(T), author, rule, key),
    ...ids.map((id, i) => sql`INSERT INTO feed_index_entries (index_id, rank, echo_id) SELECT id, ${i % 7}, ${id} FROM feed_indexes WHERE rule_key = ${key}`),
  ]);
  const held = async () => {
    const [rows] = await batch(app().db, [sql`SELECT echo_id AS id FROM feed_index_entries WHERE index_id = (SELECT id FROM feed_indexes WHERE rule_key = ${key}) ORDER BY echo_id`]);
    return (rows as { id: string }[]).map((r) => r.id);
  };
  /** what a sweep at `now` must leave: the entries of echos made within the day before it */
  const fresh = (now: number) => ids.filter((_, i) => times[i]! >= now - DAY).sort();
  return { held, fresh };
}

/** Every 3 minutes over `hours` hours from `from`. */
const every3min = (from: number, hours: number) => Array.from({ length: hours * 20 }, (_, i) => from + i * 180_000);

/** Each case starts as a store whose passes never kept the sweep's marks. */
const forgetMarks = () => batch(app().db, [sql`DELETE FROM stats WHERE key LIKE 'feed_index_ag%'`]);

describe("the windowed indexes' sweep", () => {
  it("takes every aged entry out of a store no pass swept, index by index, then follows the window through gaps of any length", async () => {
    // two indexes; entries from 3 hours before the window's start (at T) to 3 hours into it, and
    // a few from 6 hours after T (fresh until T + 6 h + 1 day)
    await forgetMarks();
    const a = await dayIndex("agea", [...every3min(T - DAY - 3 * HOUR, 6), T + 6 * HOUR, T + 7 * HOUR]);
    const b = await dayIndex("ageb", [...every3min(T - DAY - 3 * HOUR, 6), T + 6 * HOUR]);
    expect((await a.held()).length).toBe(122);

    // first pass, one index a pass: the first index loses everything aged, the other only the
    // echo-id walk's first band (the 15 minutes before the window's start)
    const first = await sweepAged(app().db, T, 1);
    expect(first.walked).toBe(1);
    expect(await a.held()).toEqual(a.fresh(T));
    expect((await b.held()).length).toBeGreaterThan(b.fresh(T).length);
    // the second pass walks the other; the third finds no more and ends the walk
    expect((await sweepAged(app().db, T + 60_000, 1)).walked).toBe(1);
    expect(await b.held()).toEqual(b.fresh(T + 60_000));
    expect((await sweepAged(app().db, T + 120_000, 1)).walked).toBe(0);
    expect((await sweepAged(app().db, T + 180_000, 1)).walked).toBe(0);

    // a cron gap of two hours: everything that aged since the last pass goes, not a 15-minute band
    const gap = T + 2 * HOUR;
    const after = await sweepAged(app().db, gap, 1);
    expect(after.aged).toBeGreaterThan(2 * 15);
    expect(await a.held()).toEqual(a.fresh(gap));
    expect(await b.held()).toEqual(b.fresh(gap));

    // a gap of two days: a pass sweeps at most a day of echo ids, the next one the rest
    const late = T + 2 * DAY;
    await sweepAged(app().db, late, 1);
    expect(await a.held()).toHaveLength(2);
    await sweepAged(app().db, late + 60_000, 1);
    expect(await a.held()).toEqual([]);
    expect(await b.held()).toEqual([]);
  });

  it("runs in the repair pass, its marks kept between passes", async () => {
    await forgetMarks();
    const c = await dayIndex("agec", every3min(T - DAY - 2 * HOUR, 4));
    const done = await repairIndexes(app(), app().db, T, 0, 0);
    expect(done.aged).toBeGreaterThan(0);
    expect(await c.held()).toEqual(c.fresh(T));
    const [marks] = await batch(app().db, [sql`SELECT key, value FROM stats WHERE key LIKE 'feed_index_ag%' ORDER BY key`]);
    expect(marks).toContainEqual({ key: "feed_index_aged_1day", value: T - DAY });
    expect(marks).toContainEqual({ key: "feed_index_aging_walk_1day", value: -1 });
  });
});
