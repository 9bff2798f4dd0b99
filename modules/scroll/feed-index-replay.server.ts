// The feed index's replays (part of the repair pass, decision 020): posts and likes whose
// messages may have been lost go through the consumer again, and the rank sweep walks every
// index's entries for ranks out of step.
import { idFloor, idTime } from "../shared/index";
import { batch, select, sql, tables, type AppContext, type Change, type Db } from "../shared/index.server";
import { consumeChanges } from "./feed-index-consumer.server";
import { keepStat } from "./feed-index.server";

/**
 * The replay: each pass runs the echos posted since the last pass (up to REPLAY_MAX, oldest first,
 * all but the last REPLAY_LAG — the stream's own delay) through the consumer again, as if their
 * messages came twice, and removes entries of echos deleted in that range. A lost post message is
 * found however many matches bury it; the cost is reading every post's candidates twice.
 */
const REPLAY_MAX = 1000;
const REPLAY_LAG = 10_000;
/** Where the replay starts when it never ran: this long ago. */
const REPLAY_FIRST = 15 * 60_000;

/**
 * The rank sweep: lost like messages. A like's message only says "this echo's count moved"; lost,
 * the echo stands at its old count in the most-liked indexes (the check compares only their first
 * REPAIR_DEPTH matches). Each pass walks the next RANK_SWEEP entries of all indexes in echo order
 * (the entries' echo index, from the stats marker `feed_index_rank_swept_to`, an id's time, back
 * to the start past the last) and sends each echo whose entry's rank is not its like count now
 * — or whose echo is gone — through the consumer again, as a repeated `likes` (`delete`) message
 * would: it moves, enters or leaves every index it belongs to. A whole 0.1 store's 2.4 M entries
 * take about 1,200 passes (4 days at one pass per 5 minutes): a lost like near the top is the
 * check's, deeper ones the sweep's.
 */
const RANK_SWEEP = 2000;
export async function sweepRanks(app: Pick<AppContext, "env" | "ctx">, db: Db, now: number): Promise<{ swept: number; resynced: number }> {
  const [marker] = await batch(db, [select({ value: tables.stats.value }, sql`FROM stats WHERE key = 'feed_index_rank_swept_to'`)]);
  const from = idFloor(marker[0]?.value ?? 0);
  const [walked] = await batch(db, [
    select(
      {
        echoId: sql<string>`w.echo_id`,
        gone: sql<number>`e.id IS NULL`,
        stale: sql<number>`fi.rule_key LIKE '%"sortBy":"mostLiked"%' AND w.rank <> coalesce(e.likes_count, -1)`,
      },
      sql`FROM (SELECT echo_id, index_id, rank FROM feed_index_entries INDEXED BY feed_index_entries_echo WHERE echo_id >= ${from} ORDER BY echo_id LIMIT ${RANK_SWEEP}) w
        JOIN feed_indexes fi ON fi.id = w.index_id LEFT JOIN echos e ON e.id = w.echo_id`,
    ),
  ]);
  const gone = [...new Set(walked.filter((r) => r.gone).map((r) => r.echoId))];
  const moved = [...new Set(walked.filter((r) => !r.gone && r.stale).map((r) => r.echoId))];
  const changes: Change[] = [];
  if (gone.length > 0) changes.push({ type: "delete", echoIds: gone });
  for (let i = 0; i < moved.length; i += 100) changes.push({ type: "likes", echoIds: moved.slice(i, i + 100) });
  for (const change of changes) await consumeChanges(app, db, [change], now);
  // on from the last echo walked (its other entries are walked again: an echo's entries share its
  // id), or from the start once the walk found fewer than a sweep's worth
  // (a millisecond holding more than a sweep's worth of entries is stepped over)
  const last = walked.reduce((max, r) => (r.echoId > max ? r.echoId : max), "");
  const at = marker[0]?.value ?? 0;
  const next = walked.length < RANK_SWEEP ? 0 : idTime(last) > at ? idTime(last) : idTime(last) + 1;
  await batch(db, [keepStat("feed_index_rank_swept_to", next)]);
  return { swept: walked.length, resynced: gone.length + moved.length };
}

/**
 * The likes' replay: the echos whose like count moved since the last pass (the ranking pass's
 * change log, `rank_dirty`, which the likes triggers fill in the like's own batch) go through the
 * consumer again as a repeated `likes` message, up to REPLAY_MAX a pass. The rank sweep walks only
 * the entries an index holds: a lost like that should lift an echo INTO a capped most-liked index
 * (above its frontier) left no entry to find, and only the check of the top REPAIR_DEPTH saw it.
 * Costs reading every liked echo's candidate indexes twice, as the posts' replay does.
 */
export async function relayLikes(app: Pick<AppContext, "env" | "ctx">, db: Db, moved: readonly string[], now: number): Promise<number> {
  const echoIds = [...new Set(moved)].slice(0, REPLAY_MAX);
  for (let i = 0; i < echoIds.length; i += 100) await consumeChanges(app, db, [{ type: "likes", echoIds: echoIds.slice(i, i + 100) }], now);
  return echoIds.length;
}

/** The replay (REPLAY_MAX): the posts since its marker (`stats` row `feed_index_replayed_to`, ms) through the consumer again. */
export async function replayPosts(app: Pick<AppContext, "env" | "ctx">, db: Db, now: number): Promise<number> {
  const [marker] = await batch(db, [select({ value: tables.stats.value }, sql`FROM stats WHERE key = 'feed_index_replayed_to'`)]);
  const from = marker[0]?.value ?? now - REPLAY_FIRST;
  const to = now - REPLAY_LAG;
  if (from >= to) return 0;
  const e = tables.echos;
  const [posted] = await batch(db, [
    select(
      { id: e.id, authorId: e.authorId, tags: e.tags, createdAt: e.createdAt, parentId: e.parentId },
      sql`FROM echos WHERE id >= ${idFloor(from)} AND id < ${idFloor(to)} ORDER BY id LIMIT ${REPLAY_MAX}`,
    ),
  ]);
  // in batches the size of a queue consumer's (100 messages)
  for (let i = 0; i < posted.length; i += 100) {
    await consumeChanges(app, db, posted.slice(i, i + 100).map((echo): Change => ({ type: "post", echo })), now);
  }
  // up to the last replayed (the next pass goes on from there), or all of the range
  const reached = posted.length === REPLAY_MAX ? Math.max(idTime(posted[posted.length - 1]!.id), from + 1) : to;
  await batch(db, [
    // entries of echos deleted in the replayed range whose delete message was lost
    sql`DELETE FROM feed_index_entries WHERE echo_id >= ${idFloor(from)} AND echo_id < ${idFloor(reached)}
        AND NOT EXISTS (SELECT 1 FROM echos WHERE echos.id = feed_index_entries.echo_id)`,
    keepStat("feed_index_replayed_to", reached),
  ]);
  return posted.length;
}
