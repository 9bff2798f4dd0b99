// The cron's walk over existing likes (issue 27, decision 033 "The walk over existing likes"):
// viewer indexes made on like (feed-viewer-eager.server.ts) see only likes whose message reached
// the consumer after that build. Likes from before it, a like whose message was lost, and a run
// that other users' likes re-rank into density (most liked) are found here instead, from the
// index's side: the cron reads the shared indexes of hide-liked rules one after another (their
// id order, DENSE_INDEXES_PER_PASS a run, its place kept in `stats`), and for each finds, in one
// statement, the readers who liked DENSE_LIKES of its entries within DENSE_RUN consecutive ones
// (the entries numbered in the index's order, the likes of each, and the 32nd liked entry's place
// after each liked one: a window function) — a run too dense for their page can lie only there.
// The readers' runs around those entries go to the queue (`runs` messages, RUNS_A_TRIP each: an
// index is read once however many it holds), whose consumer gives each the check a like gets
// (`runsTooDense`: the entries either side, a likes probe each, `tooDense`) and, where it holds,
// the same make message (`eager`: never evicting, the kind's bound as on like; a hider's the `b:`
// kind). Readers who already have the rule's viewer index of their kind, or a full set, are passed. After a whole walk it rests at the last index
// (indexes made later are read as the walk meets them) and starts again DENSE_REFRESH_MS after
// its last start: that is how late a re-ranked run, or a lost like's, is found.
import { batch, select, sendChanges, sql, tables, type AppContext, type Change, type Db } from "../shared/index.server";
import { keepStat, orderSql } from "./feed-index.server";
import { DENSE_LIKES, DENSE_RUN, inWindow, RUNS_A_TRIP } from "./feed-viewer-eager.server";
import { hideLikedKindSql } from "./feed-viewer-index.server";
import { lit } from "./feed-streams.server";
import { ruleOfKey } from "./rule.server";

/** Shared indexes a run reads (each at most INDEX_CAP entries and their likes). */
export const DENSE_INDEXES_PER_PASS = 4;
/** The walk starts again this long after its last start. */
export const DENSE_REFRESH_MS = 7 * 24 * 3600_000;

const WALKED = "viewer_dense_walked_to";
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
 * (of a windowed rule, its entries still in the window, as a page reads them): for each, the first
 * such liked entry, and `passed` where the reader already has this rule's viewer index of the kind
 * their page reads (a hider's `b:`, else `v:`) or holds that kind's bound. Reads the index's entries and their likes.
 */
function denseReaders(index: { id: number; ruleKey: string }, now: number) {
  const rule = ruleOfKey(index.ruleKey);
  // (the kind their page reads: a hider's `b:`, anyone else's `v:`)
  const places = hideLikedKindSql("d.user_id", lit(index.ruleKey));
  return select(
    {
      viewerId: sql<string>`d.user_id`,
      echoId: sql<string>`d.echo_id`,
      rank: sql<number>`d.rank`,
      passed: sql<number>`${places.has} OR ${places.full}`,
    },
    sql`FROM (SELECT user_id, echo_id, rank, min(pos) AS pos FROM (
          SELECT l.user_id, e.echo_id, e.rank, e.pos, lead(e.pos, ${DENSE_LIKES - 1}) OVER (PARTITION BY l.user_id ORDER BY e.pos) AS far
          FROM (SELECT echo_id, rank, row_number() OVER (ORDER BY ${orderSql(rule)}) AS pos
                FROM feed_index_entries WHERE index_id = ${index.id} ${inWindow(rule, now)}) e
          JOIN likes l ON l.echo_id = e.echo_id)
        WHERE far - pos < ${DENSE_RUN} GROUP BY user_id) d`,
  );
}

/** A run: the indexes read, their dense readers, of them those whose runs were sent to be checked, and in how many messages. */
export type DenseWalk = { indexes: number; readers: number; sent: number; messages: number; walkedTo: number; skipped: number };

/**
 * One run of the walk: the next DENSE_INDEXES_PER_PASS hide-liked shared indexes read, and their
 * dense readers' runs handed to the queue (`runs`, RUNS_A_TRIP a message), whose consumer checks
 * them as a like's and sends the make messages — so an index with thousands of such readers is
 * read once.
 */
export async function walkDenseLikes(app: Pick<AppContext, "env" | "ctx">, db: Db, now = Date.now(), perPass = DENSE_INDEXES_PER_PASS): Promise<DenseWalk> {
  const st = tables.stats;
  const [marks] = await batch(db, [select({ key: st.key, value: st.value }, sql`FROM stats WHERE key IN (${WALKED}, ${PASS_AT})`)]);
  const mark = new Map(marks.map((m) => [m.key, m.value] as const));
  let [from, passAt] = [mark.get(WALKED) ?? 0, mark.get(PASS_AT) ?? now];
  if (now - passAt >= DENSE_REFRESH_MS) [from, passAt] = [0, now];
  const [indexes] = await batch(db, [hideLikedIndexes(from, perPass)]);
  // one statement a round trip: an index whose statement fails (D1's time limit: the million-echo
  // store's heaviest index reads ~4 M likes, 21 s locally) is passed, not retried every run, so it
  // cannot hold the walk at its place; its readers' short pages still ask (decision 033)
  let skipped = 0;
  const found: { viewerId: string; echoId: string; rank: number; passed: number }[][] = [];
  for (const index of indexes) {
    try {
      found.push((await batch(db, [denseReaders(index, now)]))[0]);
    } catch (error) {
      skipped++;
      found.push([]);
      console.warn(`[dense-likes-walk] index ${index.id} passed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const messages = indexes.flatMap((index, i): Change[] => {
    const at = found[i]!.filter((r) => !r.passed).map(({ viewerId, echoId, rank }) => ({ viewerId, echoId, rank }));
    return Array.from({ length: Math.ceil(at.length / RUNS_A_TRIP) }, (_, k) => ({ type: "runs", indexId: index.id, ruleKey: index.ruleKey, at: at.slice(k * RUNS_A_TRIP, (k + 1) * RUNS_A_TRIP) }));
  });
  sendChanges(app, messages);
  const walkedTo = indexes.at(-1)?.id ?? from;
  await batch(db, [keepStat(WALKED, walkedTo), keepStat(PASS_AT, passAt)]);
  const sent = messages.reduce((n, m) => n + (m.type === "runs" ? m.at.length : 0), 0);
  return { indexes: indexes.length, readers: found.reduce((n, rows) => n + rows.length, 0), sent, messages: messages.length, walkedTo, skipped };
}
