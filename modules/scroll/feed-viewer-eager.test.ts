// A hide-liked reader's pages full from their first read (issue 27, decision 033 "Made on like",
// "Chosen in SQL", "Replays"). Real D1, the queue's consumer run as it runs beside the writes:
// - a reader who liked long runs of a feed through the app (each like's message consumed as it
//   comes) reads it for the first time, every page from a new isolate: their viewer index was made
//   on like, and the first page already reads it — every page full, ≤ 2 round trips, ≤ 200 rows,
//   by cursor and by number, and no page asks for anything;
// - likes in a burst (many likers in one batch; an echo in more shared indexes than one message
//   checks): each dense (reader, rule) made;
// - a reader whose index a short page asked for (likes from before: no message) reads the feed
//   again from a new isolate: its first page reads the index (before: one more short page);
// - like and unlike messages of the reader's lost deep in their index (below the check's depth):
//   one repair pass — the relay of the echos whose counts moved — makes the index exact again.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { setLike } from "../echo/index.server";
import { batch, forgetAllHints, sql, testAppContext, type Change } from "../shared/index.server";
import { newId } from "../shared/index";
import { consumeChanges } from "./feed-index-consumer.server";
import { cappedScroll, drainQueue, keptQueue, measured, viewerIndexState } from "./depth-paging.test-support";
import { repairIndexes } from "./feed-index-repair.server";
import { ruleKeyOf } from "./rule.server";
import { thinRule, writeThinMatches } from "./thin-matches.test-support";
import { tooDense } from "./feed-viewer-eager.server";
import { DENSE_REFRESH_MS, walkDenseLikes, type DenseWalk } from "./feed-viewer-walk.server";
import { scrollEchos } from "./pages.server";
import type { FeedRule } from "./schema";

const { env: queued, sent } = keptQueue(env);
const app = () => testAppContext(queued);
const drain = () => drainQueue(app(), sent);

/**
 * Every page of the scroll to its end, each read by a new isolate (its hints forgotten), the first
 * one included: full (20, or all that is left), ≤ 2 round trips, ≤ 200 rows, the whole equal to
 * `expected`; by cursor, then by number. Returns the max rows a page read.
 */
async function coldPages(viewerId: string, scrollId: string, expected: string[], label: string): Promise<number> {
  let maxRows = 0;
  for (const byNumber of [false, true]) {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let n = 1; n <= 50; n++) {
      forgetAllHints();
      const { got, stats } = await measured(queued, viewerId, scrollId, byNumber ? n : 1, cursor);
      const at = `${label}${byNumber ? " by number" : ""} page ${n}`;
      maxRows = Math.max(maxRows, stats.rowsRead);
      expect(stats.roundTrips, at).toBeLessThanOrEqual(2);
      expect(stats.rowsRead, at).toBeLessThanOrEqual(200);
      expect(got.echos.length, at).toBe(Math.min(20, expected.length - seen.length));
      seen.push(...got.echos.map((e) => e._id));
      cursor = got.pagination.nextCursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen, label).toEqual(expected);
  }
  return maxRows;
}

/** A reader, an author, 260 matches of a new tag and the reader's hide-liked feed of them (its shared index built). */
async function hideLikedFeed(who: string, sortBy: FeedRule["sortBy"], matches = 260) {
  const author = (await signup(app(), { userName: `ve_a_${who}`, password: "pass1234" })).user._id;
  const reader = (await signup(app(), { userName: `ve_r_${who}`, password: "pass1234" })).user._id;
  const tag = `viewereager${who}`;
  const written = await writeThinMatches(app(), author, tag, matches, Date.now() - 10_000_000);
  const rule = { ...thinRule(tag, sortBy), excludeLikedEchos: true };
  const likes = new Map(written.map((m) => [m.id, m.likes]));
  const order = () => [...likes.keys()].sort((a, b) => (sortBy === "mostLiked" ? likes.get(b)! - likes.get(a)! : 0) || (a < b ? 1 : -1));
  return { reader, rule, likes, order };
}

/** Runs of the cron's walk over hide-liked indexes until it rests (has read every one). */
async function walkToRest(): Promise<DenseWalk[]> {
  const runs: DenseWalk[] = [];
  for (let run = 0; run < 20 && runs.at(-1)?.indexes !== 0; run++) runs.push(await walkDenseLikes(app(), app().db, Date.now()));
  return runs;
}

/** The walk's `runs` messages consumed (the make messages they send stay queued). */
async function drainRuns() {
  const runs = sent.filter((c) => c.type === "runs");
  sent.splice(0, sent.length, ...sent.filter((c) => c.type !== "runs"));
  await consumeChanges(app(), app().db, runs);
}

const viewerAsks = () => sent.filter((c) => c.type === "viewer" && !c.touch && !c.eager);

describe("a hide-liked reader's viewer index before their first page", { timeout: 600_000 }, () => {
  it("a run is too dense where it holds fewer than a screen unliked, and only a whole run counts", () => {
    const liked = (n: number) => Array.from({ length: n }, () => true);
    const unliked = (n: number) => Array.from({ length: n }, () => false);
    // 51 entries: the liked one, 31 more liked and 19 unliked after it — 19 unliked, too dense
    expect(tooDense([], [...liked(31), ...unliked(19)])).toBe(true);
    // one unliked more: a screen
    expect(tooDense([], [...liked(30), ...unliked(20)])).toBe(false);
    // the dense run may start before the liked echo
    expect(tooDense([...liked(20), ...unliked(40)], [...liked(11), ...unliked(60)])).toBe(true);
    // the index ends before a whole run: its last page shows what is left
    expect(tooDense(liked(10), liked(20))).toBe(false);
  });

  for (const sortBy of ["newestFirst", "mostLiked"] as const) {
    it(`${sortBy}: liked the first 200 through the app, then read for the first time — every page full from a new isolate`, async () => {
      const who = sortBy === "mostLiked" ? "ml" : "nf";
      const { reader, rule, likes, order } = await hideLikedFeed(who, sortBy);
      const scrollId = await cappedScroll(app(), reader, rule, 10_000);
      const liked = new Set(order().slice(0, 200));
      sent.length = 0;
      // each like as the app writes it, its message consumed as the queue delivers it
      for (const id of liked) {
        await setLike(app(), reader, id, true);
        likes.set(id, likes.get(id)! + 1);
        await drain();
      }
      const expected = order().filter((id) => !liked.has(id));
      // made on like: no page asked for it, and it holds exactly the unliked matches
      const built = await viewerIndexState(app(), ruleKeyOf(rule), reader);
      expect(built?.complete).toBe(1);
      expect(built?.entries).toBe(expected.length);
      sent.length = 0;
      const maxRows = await coldPages(reader, scrollId, expected, who);
      expect(viewerAsks()).toEqual([]);
      console.warn(`made on like ${who}: ${expected.length} unliked of ${likes.size}, every page from a new isolate full, max rows ${maxRows}`);
    });
  }

  it("a burst in one batch: 12 likers of one feed, and one liker of two feeds over the same echos — each dense pair made", async () => {
    const { rule, order } = await hideLikedFeed("burst", "newestFirst");
    const other = { ...rule, sortBy: "mostLiked" as const };
    // (users written with SQL: a dozen sign-ups would pass the test's per-IP limit)
    const readers = Array.from({ length: 12 }, (_, i) => newId(Date.now() + i));
    await batch(app().db, [
      sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES ${sql.join(readers.map((id, i) => sql`(${id}, ${`ve_burst_${i}`}, 'x', 0)`), sql`, `)}`,
    ]);
    await cappedScroll(app(), readers[0]!, rule, 10_000);
    await cappedScroll(app(), readers[0]!, other, 10_000);
    // each liked the newest 40 (reader 0: and the 40 most liked too); every message in one batch
    const newest = order().slice(0, 40);
    const [top] = await batch(app().db, [sql`SELECT id FROM echos WHERE id IN (SELECT value FROM json_each(${JSON.stringify(order())})) ORDER BY likes_count DESC, id DESC LIMIT 40`]);
    const liked = readers.map((id, i) => [id, i === 0 ? [...new Set([...newest, ...(top as { id: string }[]).map((r) => r.id)])] : newest] as const);
    await batch(app().db, liked.flatMap(([user, echos]) => echos.map((echo) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${echo}, ${user}, 0)`)));
    sent.length = 0;
    await consumeChanges(app(), app().db, liked.flatMap(([userId, echos]) => echos.map((echo): Change => ({ type: "likes", echoIds: [echo], userId }))));
    const made = sent.filter((c) => c.type === "viewer" && c.eager);
    expect(made.length).toBe(13);
    await drain();
    for (const [user] of liked) expect((await viewerIndexState(app(), ruleKeyOf(rule), user))?.complete).toBe(1);
    expect((await viewerIndexState(app(), ruleKeyOf(other), readers[0]!))?.complete).toBe(1);
  });

  it("an echo in more shared indexes than a message checks: the check goes on (dense messages) to the one whose run is too dense", async () => {
    const { reader, rule, order } = await hideLikedFeed("many", "newestFirst");
    // 9 newest-first rules of the same matches (an end date each: another key), then the most-liked one
    const rules = [...Array.from({ length: 9 }, (_, i) => ({ ...rule, endDate: Date.now() + 1_000_000_000 + i })), { ...rule, sortBy: "mostLiked" as const }];
    for (const r of rules) await cappedScroll(app(), reader, r, 10_000);
    // the 40 most liked: too dense a run only in the most-liked order (spread over time)
    const [top] = await batch(app().db, [sql`SELECT id FROM echos WHERE id IN (SELECT value FROM json_each(${JSON.stringify(order())})) ORDER BY likes_count DESC, id DESC LIMIT 40`]);
    const liked = (top as { id: string }[]).map((r) => r.id);
    await batch(app().db, liked.map((echo) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${echo}, ${reader}, 0)`));
    sent.length = 0;
    await consumeChanges(app(), app().db, liked.map((echo): Change => ({ type: "likes", echoIds: [echo], userId: reader })));
    expect(sent.filter((c) => c.type === "dense").length).toBe(1);
    await drain();
    const made = await batch(app().db, [sql`SELECT rule_key FROM feed_indexes WHERE viewer_id = ${reader}`]);
    expect((made[0] as { rule_key: string }[]).map((r) => r.rule_key)).toEqual([`v:${reader}:${ruleKeyOf(rules[9]!)}`]);
  });

  it("an index a short page asked for: a new isolate's first page reads it", async () => {
    const { reader, rule, order } = await hideLikedFeed("asked", "newestFirst");
    // likes from before (no message: written with SQL), then the scroll
    const liked = new Set(order().slice(0, 200));
    await batch(app().db, [...liked].map((id) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${reader}, 0)`));
    const scrollId = await cappedScroll(app(), reader, rule, 10_000);
    const expected = order().filter((id) => !liked.has(id));
    sent.length = 0;
    // nothing made: no like message came; the first page is short and asks
    const first = await scrollEchos(app(), reader, scrollId, { page: 1, limit: 20 });
    expect(first.echos.length).toBeLessThan(20);
    expect(viewerAsks().length).toBe(1);
    await drain();
    expect((await viewerIndexState(app(), ruleKeyOf(rule), reader))?.complete).toBe(1);
    sent.length = 0;
    await coldPages(reader, scrollId, expected, "asked");
    expect(viewerAsks()).toEqual([]);
  });

  it("like and unlike messages lost deep in the index: one repair pass makes it exact", async () => {
    const { reader, rule, order } = await hideLikedFeed("lost", "newestFirst", 300);
    // liked: the first 60 (a run the page cannot step over) and 10 deep ones
    const inOrder = order();
    const liked = new Set([...inOrder.slice(0, 60), ...inOrder.slice(200, 210)]);
    await batch(app().db, [...liked].map((id) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${reader}, 0)`));
    const scrollId = await cappedScroll(app(), reader, rule, 10_000);
    sent.length = 0;
    await scrollEchos(app(), reader, scrollId, { page: 1, limit: 20 });
    await drain();
    const key = ruleKeyOf(rule);
    expect((await viewerIndexState(app(), key, reader))?.entries).toBe(300 - liked.size);
    // 6 likes past the check's depth and 5 of the deep unlikes, their messages lost (nothing sent);
    // the likes' triggers note the echos for the ranking pass, whose echos the cron hands to the repair
    const more = inOrder.slice(150, 156);
    const less = inOrder.slice(200, 205);
    await batch(app().db, [
      sql`DELETE FROM rank_dirty`,
      ...more.map((id) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${reader}, ${Date.now()})`),
      ...less.map((id) => sql`DELETE FROM likes WHERE echo_id = ${id} AND user_id = ${reader}`),
    ]);
    for (const id of more) liked.add(id);
    for (const id of less) liked.delete(id);
    const expected = inOrder.filter((id) => !liked.has(id));
    const [noted] = await batch(app().db, [sql`SELECT substr(key, 3) AS id FROM rank_dirty WHERE key LIKE 'e:%'`]);
    const moved = (noted as { id: string }[]).map((r) => r.id);
    expect(new Set(moved)).toEqual(new Set([...more, ...less]));
    await repairIndexes(app(), app().db, Date.now(), undefined, 0, moved);
    await drain();
    expect((await viewerIndexState(app(), key, reader))?.entries).toBe(expected.length);
    await coldPages(reader, scrollId, expected, "after the repair");
  });

  it("likes from before (no message came): the cron's walk over hide-liked indexes makes the index before the first page", async () => {
    const { reader, rule, order } = await hideLikedFeed("walk", "newestFirst");
    // two dense runs, the top one and one deep in the index (140 of the first 150, 60 of the next 80)
    const inOrder = order();
    const liked = new Set([...inOrder.slice(0, 150).filter((_, i) => i % 15 !== 7), ...inOrder.slice(170, 250).filter((_, i) => i % 4 !== 0)]);
    // two more readers at the bound: 31 liked of every 51 in a row (a page's screen left: not
    // dense), and 32 of every 51 (dense)
    const [edge, over] = [newId(Date.now()), newId(Date.now() + 1)];
    await batch(app().db, [
      sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES (${edge}, 've_walk_31', 'x', 0), (${over}, 've_walk_32', 'x', 0)`,
      ...[...liked].map((id) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${reader}, 0)`),
      ...inOrder.flatMap((id, i) => (i % 51 < 31 ? [sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${edge}, 0)`] : [])),
      ...inOrder.flatMap((id, i) => (i % 51 < 32 ? [sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${over}, 0)`] : [])),
    ]);
    const scrollId = await cappedScroll(app(), reader, rule, 10_000);
    const expected = inOrder.filter((id) => !liked.has(id));
    sent.length = 0;
    // runs of the walk until it has read every hide-liked index of the store (this file's feeds)
    const runs = await walkToRest();
    expect(runs.at(-1)).toMatchObject({ indexes: 0 });
    // the runs found go to the queue; its consumer checks them and sends the make messages
    expect(sent.filter((c) => c.type === "runs").flatMap((c) => (c.type === "runs" ? c.at.map((at) => at.viewerId) : [])).filter((id) => [reader, edge, over].includes(id)).sort()).toEqual([reader, over].sort());
    await drainRuns();
    const made = sent.filter((c) => c.type === "viewer" && c.eager && [reader, edge, over].includes(c.viewerId));
    expect(made).toEqual([reader, over].map((viewerId) => ({ type: "viewer", ruleKey: ruleKeyOf(rule), viewerId, floor: null, eager: true })));
    await drain();
    expect(await viewerIndexState(app(), ruleKeyOf(rule), reader)).toMatchObject({ complete: 1, entries: expected.length });
    sent.length = 0;
    const maxRows = await coldPages(reader, scrollId, expected, "walked");
    expect(viewerAsks()).toEqual([]);
    // a walk again finds nothing more to make (the reader has the index; no other run is dense)
    const again = await walkDenseLikes(app(), app().db, Date.now() + DENSE_REFRESH_MS);
    expect(sent.filter((c) => c.type === "runs" && c.at.some((at) => at.viewerId === reader))).toEqual([]);
    expect(again.indexes).toBeGreaterThan(0);
    console.warn(`walk: ${runs.length} runs (${runs.map((r) => `${r.indexes}/${r.readers}/${r.sent}`).join(" ")}), then every page from a new isolate full, max rows ${maxRows}`);
  });

  it("the walk: an index with more dense readers than a message checks is read once, its readers' runs sent in messages of 32", async () => {
    const { rule, order } = await hideLikedFeed("walkmany", "newestFirst");
    // 40 readers who liked the newest 40 (likes from before: no message), the feed made after the last walk
    const readers = Array.from({ length: 40 }, (_, i) => newId(Date.now() + i));
    const newest = order().slice(0, 40);
    await batch(app().db, [
      sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES ${sql.join(readers.map((id, i) => sql`(${id}, ${`ve_walkmany_${i}`}, 'x', 0)`), sql`, `)}`,
      ...readers.flatMap((user) => newest.map((echo) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${echo}, ${user}, 0)`)),
    ]);
    await walkToRest();
    await cappedScroll(app(), readers[0]!, rule, 10_000);
    sent.length = 0;
    const runs = await walkToRest();
    // one run reads the index; its 40 readers' runs go in two messages (32 and 8)
    expect(runs.map((r) => [r.indexes, r.sent, r.messages])).toEqual([[1, 40, 2], [0, 0, 0]]);
    await drainRuns();
    const made = sent.filter((c) => c.type === "viewer" && c.eager).map((c) => (c.type === "viewer" ? c.viewerId : ""));
    expect(made.sort()).toEqual([...readers].sort());
    await drain();
    for (const user of readers) expect((await viewerIndexState(app(), ruleKeyOf(rule), user))?.complete).toBe(1);
  });

  it("the walk passes an index whose statement fails, and goes on to the next one", async () => {
    await walkToRest();
    // an index the walk cannot read (its rule key does not parse: the statement is never built,
    // as a statement past D1's time limit never answers), then a dense reader's feed after it
    const creator = (await signup(app(), { userName: "ve_walkfail_c", password: "pass1234" })).user._id;
    await batch(app().db, [
      sql`INSERT INTO feed_indexes (rule_key, state, cap, created_at, updated_at) VALUES ('not a rule', 'ready', 10, 0, 0)`,
      sql`INSERT INTO scrolls (id, creator_id, name, type, created_at, exclude_liked_echos, rule_key) VALUES (${newId(Date.now())}, ${creator}, 'broken', 'feed', 0, 1, 'not a rule')`,
    ]);
    const { reader, rule, order } = await hideLikedFeed("walkfail", "newestFirst");
    await batch(app().db, order().slice(0, 60).map((id) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${reader}, 0)`));
    await cappedScroll(app(), reader, rule, 10_000);
    sent.length = 0;
    const runs = await walkToRest();
    expect(runs.reduce((n, r) => n + r.skipped, 0)).toBe(1);
    expect(sent.some((c) => c.type === "runs" && c.at.some((at) => at.viewerId === reader))).toBe(true);
    await batch(app().db, [sql`DELETE FROM scrolls WHERE rule_key = 'not a rule'`, sql`DELETE FROM feed_indexes WHERE rule_key = 'not a rule'`]);
  });
});
