// The performance budget of the ranking cron: "after 1,000 new echos, rows read are proportional
// to what changed, not to the store". A store of a few thousand echos (tags, likes, shares) is
// written with set-based SQL through the real schema (the migrations' triggers fill the counters,
// tag_days and the change log as the app's writes do), ranked, then the same 1,000-echo delta is
// added and ranked. Run on two stores, N and 3N echos: the delta's pass must cost about the same.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { batch, select, sql, tables, type SQL, createDb, toD1 } from "../shared/index.server";
import { listKey, runRanking, type RankingResult } from "./ranking.server";
import { KEEP_RANKED, PERIOD_MS, PERIODS, POPULAR_SORTS } from "./schema";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 15, 12); // fixed: the data and every pass see the same clock
const USERS = 40;
const COMMON_TAGS = 60;
const DELTA = 1000;
const CHUNK = 400; // rows per INSERT … SELECT FROM json_each(?)

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const base32 = (n: number, width: number) => {
  let s = "";
  for (let i = 0; i < width; i++, n = Math.floor(n / 32)) s = ALPHABET[n % 32] + s;
  return s;
};
/** An id of the app's shape (time part, then 16 chars), deterministic: the sequence number is the tail. */
const echoId = (ms: number, seq: number) => base32(ms, 10) + base32(seq, 16);
const userId = (u: number) => echoId(NOW - 400 * DAY, 10_000_000 + u);

type EchoSpec = { id: string; author: string; createdAt: number; tags: string[] };

/** Echo `seq`: one of the common tags and, for most, one from a long tail that grows with the store. */
function echoSpec(seq: number, createdAt: number, tailSize: number): EchoSpec {
  const tags = [`common${(seq * 7) % COMMON_TAGS}`];
  if (seq % 4 !== 0) tags.push(`tail${(seq * 13) % tailSize}`);
  return { id: echoId(createdAt, seq), author: userId(seq % USERS), createdAt, tags };
}

const chunks = <T>(rows: T[]) => Array.from({ length: Math.ceil(rows.length / CHUNK) }, (_, i) => rows.slice(i * CHUNK, (i + 1) * CHUNK));
const json = (rows: unknown[]) => JSON.stringify(rows);

/** Set-based inserts: tags, echos, tag links, likes and shares, CHUNK rows a statement, one batch. */
function insertEchos(echos: EchoSpec[], likes: [string, string][], shares: [string, string][]): SQL[] {
  const tagRows = [...new Map(echos.flatMap((e) => e.tags.map((t) => [t, e.createdAt] as const))).entries()];
  const links = echos.flatMap((e) => e.tags.map((t) => [t, e.id, Math.floor(e.createdAt / DAY)]));
  const out: SQL[] = [];
  for (const c of chunks(tagRows)) {
    out.push(sql`INSERT INTO tags (name, created_at) SELECT value ->> 0, value ->> 1 FROM json_each(${json(c)}) WHERE true
      ON CONFLICT (name) DO NOTHING`);
  }
  for (const c of chunks(echos.map((e) => [e.id, e.author, `echo ${e.id}`, JSON.stringify(e.tags), e.createdAt]))) {
    out.push(sql`INSERT INTO echos (id, author_id, content, tags, created_at)
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(${json(c)})`);
  }
  for (const c of chunks(links)) {
    out.push(sql`INSERT INTO echo_tags (tag, echo_id, day) SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${json(c)})`);
  }
  for (const [table, rows] of [["likes", likes], ["shares", shares]] as const) {
    for (const c of chunks(rows)) {
      out.push(sql`INSERT INTO ${sql.raw(table)} (echo_id, user_id, created_at)
        SELECT value ->> 0, value ->> 1, ${NOW - DAY} FROM json_each(${json(c)})`);
    }
  }
  return out;
}

async function run(statements: SQL[]) {
  const db = createDb(env.DB);
  await env.DB.batch(statements.map((s) => toD1(db, s)));
}

/**
 * A store of `size` echos by 40 users, with likes (0–4 an echo) and some shares: 90% over the
 * last 60 days, 10% in the last day (so every popular list, "today" too, is full at either size).
 */
async function buildStore(size: number) {
  const users = Array.from({ length: USERS }, (_, u) => [userId(u), `scale_${u}`, "x", NOW - 400 * DAY]);
  await run([
    sql`INSERT INTO users (id, user_name, password_hash, created_at)
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(${json(users)})`,
  ]);
  const older = Math.floor(size * 0.9);
  const at = (i: number) =>
    i < older ? NOW - 61 * DAY + Math.floor((i * 60 * DAY) / older) : NOW - 25 * 3_600_000 + Math.floor(((i - older) * DAY) / (size - older));
  const echos = Array.from({ length: size }, (_, i) => echoSpec(i, at(i), size / 5));
  const likes = echos.flatMap((e, i) => Array.from({ length: i % 5 }, (_, k) => [e.id, userId((i + k + 1) % USERS)] as [string, string]));
  const shares = echos.filter((_, i) => i % 10 === 0).map((e, i) => [e.id, userId((i + 3) % USERS)] as [string, string]);
  await run(insertEchos(echos, likes, shares));
  return echos;
}

/**
 * The delta: 1,000 echos posted in the last hour (half with likes, 0–3 each, a few new tags),
 * plus one new like on each of 100 older echos. The same shape whatever the store's size.
 */
function delta(store: EchoSpec[]) {
  const echos = Array.from({ length: DELTA }, (_, i) => {
    const e = echoSpec(10_000_000 + i, NOW - 60 * 60_000 + i * 3_000, 500);
    if (i % 50 === 0) e.tags.push(`new${i}`);
    return e;
  });
  const likes = echos.flatMap((e, i) => Array.from({ length: i % 4 }, (_, k) => [e.id, userId((i + k + 7) % USERS)] as [string, string]));
  // user (i + 20) never liked stored echo i: the store's likes come from users i + 1 … i + 4
  for (let k = 0; k < 100; k++) {
    const i = Math.floor((k * store.length) / 100);
    likes.push([store[i]!.id, userId((i + 20) % USERS)]);
  }
  return insertEchos(echos, likes, []);
}

type Measure = { size: number; first: RankingResult; idle: RankingResult; delta: RankingResult; idleAfter: RankingResult };

async function measure(size: number): Promise<Measure> {
  const store = await buildStore(size);
  const first = await runRanking(env, NOW);
  const idle = await runRanking(env, NOW);
  await run(delta(store));
  const changed = await runRanking(env, NOW);
  const idleAfter = await runRanking(env, NOW);
  return { size, first, idle, delta: changed, idleAfter };
}

/** Back to the empty, migrated schema (storage is shared by the tests of a file). */
async function emptyStore() {
  const tables = ["likes", "shares", "echo_tags", "echos", "tags", "tag_days", "users", "popular_echos", "rank_dirty", "rank_state"];
  await run([...tables.map((t) => sql`DELETE FROM ${sql.raw(t)}`), sql`UPDATE stats SET value = 0`]);
}

const SCORE = { likes: "likes_count", comments: "comments_count", shares: "shares_count", recent: "created_at" } as const;

/** Scores only went up and the clock stood still, so each list must be exactly its period's top KEEP_RANKED. */
async function expectListsExact() {
  for (const period of PERIODS) {
    const span = PERIOD_MS[period];
    const since = span === null ? 0 : NOW - span;
    for (const sort of POPULAR_SORTS) {
      const list = listKey(period, sort);
      const [ranked, expected] = await batch(createDb(env.DB), [
        select({ id: tables.popularEchos.echoId }, sql`FROM popular_echos WHERE list = ${list} ORDER BY score DESC, echo_id DESC`),
        select({ id: tables.echos.id }, sql`FROM echos WHERE created_at >= ${since} ORDER BY ${sql.raw(SCORE[sort])} DESC, id DESC LIMIT ${KEEP_RANKED}`),
      ]);
      expect(ranked.map((r) => r.id), list).toEqual(expected.map((r) => r.id));
    }
  }
}

const N = 3000;
// per changed key: a few index rows in each of the 16 popular lists (the change log, the echo,
// its entry), plus the tag's seven days; measured ~65 (see docs/decisions/006)
const PER_CHANGE = 80;

describe("ranking pass cost after a 1,000-echo delta (real D1 in workerd)", () => {
  it(`reads rows in proportion to the change, the same on ${N} and ${3 * N} echos`, async () => {
    const results: Measure[] = [];
    for (const size of [N, 3 * N]) {
      await emptyStore();
      results.push(await measure(size));
      await expectListsExact();
    }
    for (const r of results) {
      console.warn(
        `ranking, store ${r.size} echos: first pass ${r.first.rowsRead} rows read (${r.first.rowsWritten} written), ` +
          `idle ${r.idle.rowsRead}, 1,000-echo delta ${r.delta.rowsRead} rows read (${r.delta.rowsWritten} written) ` +
          `for ${r.delta.changed} changed keys, idle after ${r.idleAfter.rowsRead}`,
      );
      expect(r.idle.changed).toBe(0);
      // the change log holds the 1,000 echos, the 100 liked older ones and the tags they touched
      expect(r.delta.changed).toBeGreaterThan(DELTA + 100);
      expect(r.delta.rowsRead).toBeLessThan(r.idle.rowsRead + PER_CHANGE * r.delta.changed);
      // writes are bounded per list, not per changed echo × list: at most 2 × KEEP_RANKED entries
      // upserted (5 rows written each: the row and four indexes, the fourth for an echo's delete
      // cascade, migration 0025) and trimmed (1 each) per list, plus the change log and the touched tags
      expect(r.delta.rowsWritten).toBeLessThanOrEqual(16 * 2 * KEEP_RANKED * (5 + 1) + 2 * r.delta.changed);
    }
    const [small, big] = results as [Measure, Measure];
    expect(big.delta.changed).toBe(small.delta.changed);
    // three times the store, the same cost (within 5%): idle and the delta's pass
    expect(Math.abs(big.idle.rowsRead - small.idle.rowsRead)).toBeLessThan(small.idle.rowsRead * 0.05);
    expect(Math.abs(big.delta.rowsRead - small.delta.rowsRead)).toBeLessThan(small.delta.rowsRead * 0.05);
  }, 60_000);
});
