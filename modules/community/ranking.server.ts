// The ranking pass (cron, every 5 minutes; `npm run rank` by hand). Incremental: it takes the
// change log (rank_dirty, filled by triggers on posts, likes, shares and tag links) and updates
// only what changed: recent counts of touched tags (plus tags whose oldest day just left the
// 7-day window) and the entries of changed echos in each popular list. Then it publishes the hot
// lists to KV under a new version. Nothing here scans all echos.
import { accountVisible, createDb, select, sql, tables, toD1, type RowOf, type Statement } from "../shared/index.server";
import { CACHED_POPULAR, CACHED_TAGS, KEEP_RANKED, PERIOD_MS, PERIODS, POPULAR_SORTS } from "./schema";

const DAY = 86_400_000;
const SCORE: Record<(typeof POPULAR_SORTS)[number], string> = {
  likes: "e.likes_count",
  comments: "e.comments_count",
  shares: "e.shares_count",
  recent: "e.created_at",
};

export const listKey = (period: string, sort: string) => `${period}:${sort}`;
export const kvKeys = {
  version: "community:version",
  // the cached tag rows are keyed camelCase (tagColumns); a key of its own, so a value
  // cached in the older snake_case shape is never read as the new one
  tags: (v: number) => `community:v${v}:trending`,
  popular: (v: number, list: string) => `community:v${v}:popular:${list}`,
};
export const KV_TTL_SECONDS = 3600;

/**
 * The hot tags: recent use, then all-time use, then the newest tag. The order is exactly the
 * `tags_trending` index's (recent_count, echo_count, rowid) read backwards, so the query stops
 * after CACHED_TAGS rows. A tie-break outside the index (the name, as before) made SQLite read
 * every tag tied at the 100th place — in a long tail, most of the tags in the store.
 */
export const tagColumns = {
  name: tables.tags.name,
  echoCount: tables.tags.echoCount,
  recentCount: tables.tags.recentCount,
  createdAt: tables.tags.createdAt,
};
export const trendingTagsQuery = select(
  tagColumns,
  sql`FROM tags ORDER BY recent_count DESC, echo_count DESC, rowid DESC LIMIT ${CACHED_TAGS}`,
);

/**
 * A popular list's best CACHED_POPULAR echos (the `popular_echos_rank` index, read backwards),
 * without the echos of accounts moderators limited or suspended (decision 029): their authors are
 * on the entries, so those are stepped over within the index (at most KEEP_RANKED entries read).
 * Before, they were left out of the page only, short by them past its 5 spare echos.
 */
export const rankedListQuery = (list: string) =>
  select(
    { echoId: tables.popularEchos.echoId },
    sql`FROM popular_echos INDEXED BY popular_echos_rank WHERE list = ${list} AND ${accountVisible("author_id")} ORDER BY score DESC, echo_id DESC LIMIT ${CACHED_POPULAR}`,
  );

export type RankingResult = {
  changed: number;
  rowsRead: number;
  rowsWritten: number;
  version: number;
  /** the echos of the change log (liked, unliked, shared or posted since the last pass): the feed index's repair pass relays their likes */
  echoIds: string[];
};

export async function runRanking(env: Env, now = Date.now()): Promise<RankingResult> {
  const db = createDb(env.DB);
  // D1's own batch, not batch(): the pass reports the rows each statement read and wrote (meta);
  // its reads are decoded by their selections
  const run = (statements: Statement[]) => db.$client.batch<Record<string, unknown>>(statements.map((s) => toD1(db, s)));

  // 1. Read the change log. It is deleted inside the main batch below, so a pass that fails
  //    part-way leaves both the previous rankings and the log for the next pass.
  const dirty = select({ key: tables.rankDirty.key }, sql`FROM rank_dirty`);
  const stateRows = select({ key: tables.rankState.key, value: tables.rankState.value }, sql`FROM rank_state`);
  const [taken, state] = await run([dirty, stateRows]);
  const keys = dirty.decode(taken!.results).map((r) => r.key);
  const stateMap = new Map(stateRows.decode(state!.results).map((r) => [r.key, r.value]));
  const echoIds = keys.filter((k) => k.startsWith("e:")).map((k) => k.slice(2));
  const tags = keys.filter((k) => k.startsWith("t:")).map((k) => k.slice(2));
  const today = Math.floor(now / DAY);
  const lastDay = stateMap.get("last_day") ?? today;
  const version = (stateMap.get("version") ?? 0) + 1;
  // days that left the 7-day window since the last pass: [lastDay - 6, today - 7]
  const expiredFrom = lastDay - 6;
  const expiredTo = today - 7;

  const recent = sql`COALESCE((SELECT SUM(d.count) FROM tag_days d WHERE d.tag = tags.name AND d.day > ${today - 7}), 0)`;

  // 2. One atomic batch: recompute, upsert, prune, trim, publish the version; read the hot lists.
  const statements: Statement[] = [
    sql`DELETE FROM rank_dirty WHERE key IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`,
    sql`UPDATE tags SET recent_count = ${recent} WHERE name IN (SELECT value FROM json_each(${JSON.stringify(tags)}))`,
    sql`UPDATE tags SET recent_count = ${recent} WHERE name IN (SELECT tag FROM tag_days WHERE day BETWEEN ${expiredFrom} AND ${expiredTo})`,
  ];
  const ids = JSON.stringify(echoIds);
  for (const period of PERIODS) {
    const span = PERIOD_MS[period];
    const since = span === null ? 0 : now - span;
    for (const sort of POPULAR_SORTS) {
      const list = listKey(period, sort);
      const score = sql.raw(SCORE[sort]);
      if (span !== null) statements.push(sql`DELETE FROM popular_echos WHERE list = ${list} AND created_at < ${since}`);
      if (echoIds.length > 0) {
        const changed = sql`SELECT ${list}, e.id, ${score}, e.created_at, e.author_id FROM echos e
          WHERE e.id IN (SELECT value FROM json_each(${ids})) AND e.created_at >= ${since}`;
        // More changed echos than a list keeps: upsert only those that can be in it after the
        // trim, the ones listed already (their score is refreshed, up or down; a trimmed list
        // holds at most KEEP_RANKED) and the best KEEP_RANKED others — listed first, so a limit
        // of 2 × KEEP_RANKED keeps both. Writing every changed echo into every list only to trim
        // most of them again cost ~85,000 rows written for 1,000 new echos, and 16 × its echos
        // on a first pass over a big store (docs/decisions/006).
        const candidates =
          echoIds.length <= KEEP_RANKED
            ? changed
            : sql`${changed} ORDER BY EXISTS (SELECT 1 FROM popular_echos p WHERE p.list = ${list} AND p.echo_id = e.id) DESC,
                ${score} DESC, e.id DESC LIMIT ${2 * KEEP_RANKED}`;
        statements.push(sql`INSERT INTO popular_echos (list, echo_id, score, created_at, author_id) ${candidates}
          ON CONFLICT (list, echo_id) DO UPDATE SET score = excluded.score`);
      }
      statements.push(sql`DELETE FROM popular_echos WHERE list = ${list} AND (score, echo_id) < (
        SELECT score, echo_id FROM popular_echos WHERE list = ${list} ORDER BY score DESC, echo_id DESC LIMIT 1 OFFSET ${KEEP_RANKED - 1})`);
    }
  }
  statements.push(
    sql`INSERT INTO rank_state (key, value) VALUES ('version', ${version}), ('last_run', ${now}), ('last_day', ${today})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  const readFrom = statements.length;
  statements.push(trendingTagsQuery);
  const lists: { list: string; read: ReturnType<typeof rankedListQuery> }[] = [];
  for (const period of PERIODS) {
    for (const sort of POPULAR_SORTS) {
      const list = listKey(period, sort);
      const read = rankedListQuery(list);
      lists.push({ list, read });
      statements.push(read);
    }
  }
  const results = await run(statements);

  // 3. Publish to KV: lists first, the version last, so a reader never sees a half-written version.
  const tagRows: TagRow[] = trendingTagsQuery.decode(results[readFrom]!.results);
  const puts: Promise<void>[] = [env.KV.put(kvKeys.tags(version), JSON.stringify(tagRows), { expirationTtl: KV_TTL_SECONDS })];
  lists.forEach(({ list, read }, i) => {
    const rows = read.decode(results[readFrom + 1 + i]!.results);
    puts.push(env.KV.put(kvKeys.popular(version, list), JSON.stringify(rows.map((r) => r.echoId)), { expirationTtl: KV_TTL_SECONDS }));
  });
  await Promise.all(puts);
  await env.KV.put(kvKeys.version, String(version));

  const meta = [taken!, state!, ...results].map((r) => r.meta);
  return {
    changed: keys.length,
    rowsRead: meta.reduce((n, m) => n + (m.rows_read ?? 0), 0),
    rowsWritten: meta.reduce((n, m) => n + (m.rows_written ?? 0), 0),
    version,
    echoIds,
  };
}

export type TagRow = RowOf<typeof tagColumns>;
