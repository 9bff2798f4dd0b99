// The cron's walk over existing likes (issue 27, decision 033 "Before the first page: the walk"):
// viewer indexes made on like (feed-viewer-eager.server.ts) see only likes whose message reached
// the consumer after that build. Likes from before it, a like whose message was lost, and a run
// that other users' likes re-rank into density (most liked) are found here instead, from the
// index's side: the cron reads the shared indexes of hide-liked rules one after another (their
// id order, DENSE_INDEXES_PER_PASS a run, its place kept in `stats`), and for each finds, in one
// statement, the readers who liked DENSE_LIKES of its entries within DENSE_RUN consecutive ones
// (the entries numbered in the index's order, the likes of each, and the 32nd liked entry's place
// after each liked one: a window function) — a run too dense for their page can lie only there.
// The reader's run around that entry then gets the consumer's own check (`runsTooDense`: the
// entries either side, a likes probe each, `tooDense`), and where it holds, the same make message
// (`eager`: never evicting, the VIEWER_INDEXES_MAX cap as on like). Readers who already have the
// rule's viewer index, or a full set, are passed. After a whole walk it rests at the last index
// (indexes made later are read as the walk meets them) and starts again DENSE_REFRESH_MS after
// its last start: that is how late a re-ranked run, or a lost like's, is found.
import { batch, select, sendChanges, sql, tables, type AppContext, type Db } from "../shared/index.server";
import { keepStat, orderSql } from "./feed-index.server";
import { DENSE_LIKES, DENSE_RUN, inWindow, runsTooDense, type DenseAt } from "./feed-viewer-eager.server";
import { VIEWER_INDEXES_MAX } from "./feed-viewer-index.server";
import { ruleOfKey } from "./rule.server";

/** Shared indexes a run reads (each at most INDEX_CAP entries and their likes). */
export const DENSE_INDEXES_PER_PASS = 4;
/** Readers' runs a run checks (two statements of ≤ ~100 rows each); more wait for the next run. */
export const DENSE_CHECKS_PER_PASS = 32;
/** The walk starts again this long after its last start. */
export const DENSE_REFRESH_MS = 7 * 24 * 3600_000;

const WALKED = "viewer_dense_walked_to";
const SKIP = "viewer_dense_skip";
const PASS_AT = "viewer_dense_pass_at";

/** The next shared indexes of hide-liked rules after `after`, in id order. */
const hideLikedIndexes = (after: number, limit: number) =>
  select(
    { id: tables.feedIndexes.id, ruleKey: tables.feedIndexes.ruleKey },
    sql`FROM feed_indexes WHERE id > ${after} AND viewer_id IS NULL AND state = 'ready'
      AND EXISTS (SELECT 1 FROM scrolls s WHERE s.rule_key = feed_indexes.rule_key AND s.exclude_liked_echos = 1)
      ORDER BY id LIMIT ${limit}`,
  );

/**
 * The readers of one index who liked DENSE_LIKES of its entries within DENSE_RUN consecutive ones
 * (of a windowed rule, its entries still in the window, as a page reads them), in user order from
 * `skip`: for each, the first such liked entry, and `passed` where the reader already has this
 * rule's viewer index or holds VIEWER_INDEXES_MAX. Reads the index's entries and their likes.
 */
function denseReaders(index: { id: number; ruleKey: string }, now: number, skip: number, limit: number) {
  const rule = ruleOfKey(index.ruleKey);
  return select(
    {
      viewerId: sql<string>`d.user_id`,
      echoId: sql<string>`d.echo_id`,
      rank: sql<number>`d.rank`,
      passed: sql<number>`EXISTS (SELECT 1 FROM feed_indexes v WHERE v.rule_key = 'v:' || d.user_id || ':' || ${index.ruleKey})
        OR (SELECT count(*) FROM feed_indexes v WHERE v.viewer_id = d.user_id) >= ${VIEWER_INDEXES_MAX}`,
    },
    sql`FROM (SELECT user_id, echo_id, rank, min(pos) AS pos FROM (
          SELECT l.user_id, e.echo_id, e.rank, e.pos, lead(e.pos, ${DENSE_LIKES - 1}) OVER (PARTITION BY l.user_id ORDER BY e.pos) AS far
          FROM (SELECT echo_id, rank, row_number() OVER (ORDER BY ${orderSql(rule)}) AS pos
                FROM feed_index_entries WHERE index_id = ${index.id} ${inWindow(rule, now)}) e
          JOIN likes l ON l.echo_id = e.echo_id)
        WHERE far - pos < ${DENSE_RUN} GROUP BY user_id) d
      ORDER BY d.user_id LIMIT ${limit} OFFSET ${skip}`,
  );
}

export type DenseWalk = { indexes: number; readers: number; checked: number; made: number; walkedTo: number; skip: number };

/**
 * One run of the walk: the next DENSE_INDEXES_PER_PASS hide-liked shared indexes read, their dense
 * readers' runs checked (DENSE_CHECKS_PER_PASS at most: an index whose readers do not all fit is
 * taken up again at the next run, from the reader it stopped at), the make messages sent.
 */
export async function walkDenseLikes(app: Pick<AppContext, "env" | "ctx">, db: Db, now = Date.now(), perPass = DENSE_INDEXES_PER_PASS): Promise<DenseWalk> {
  const st = tables.stats;
  const [marks] = await batch(db, [select({ key: st.key, value: st.value }, sql`FROM stats WHERE key IN (${WALKED}, ${SKIP}, ${PASS_AT})`)]);
  const mark = new Map(marks.map((m) => [m.key, m.value] as const));
  let [from, skip, passAt] = [mark.get(WALKED) ?? 0, mark.get(SKIP) ?? 0, mark.get(PASS_AT) ?? now];
  if (now - passAt >= DENSE_REFRESH_MS) [from, skip, passAt] = [0, 0, now];
  const [indexes] = await batch(db, [hideLikedIndexes(from, perPass)]);
  const found = indexes.length > 0 ? await batch(db, indexes.map((index, i) => denseReaders(index, now, i === 0 ? skip : 0, DENSE_CHECKS_PER_PASS + 1))) : [];
  const checks: DenseAt[] = [];
  let [walkedTo, nextSkip, walked, readers] = [from, 0, 0, 0];
  for (const [i, index] of indexes.entries()) {
    const rows = found[i]!;
    let taken = 0;
    for (const r of rows) {
      if (checks.length === DENSE_CHECKS_PER_PASS) break;
      taken++;
      if (!r.passed) checks.push({ viewerId: r.viewerId, indexId: index.id, ruleKey: index.ruleKey, echoId: r.echoId, rank: r.rank });
    }
    readers += taken;
    // (rows past the LIMIT, or past the checks' room: this index goes on at the next run)
    if (taken < rows.length || rows.length > DENSE_CHECKS_PER_PASS) {
      nextSkip = (i === 0 ? skip : 0) + taken;
      break;
    }
    [walkedTo, walked] = [index.id, walked + 1];
  }
  const made = await runsTooDense(db, checks, now);
  sendChanges(app, made);
  await batch(db, [keepStat(WALKED, walkedTo), keepStat(SKIP, nextSkip), keepStat(PASS_AT, passAt)]);
  return { indexes: walked, readers, checked: checks.length, made: made.length, walkedTo, skip: nextSkip };
}
