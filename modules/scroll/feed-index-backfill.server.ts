// The feed index's backfill (decision 020): an index built from the store by the engine, a few
// windows a message, from where it stopped; and how an index is marked ready at its cap.
import { isId } from "../shared/index";
import { batch, select, sql, tables, type Change, type Db, type SQL } from "../shared/index.server";
import { feedMatchQuery, feedPage, windowSize, type FeedMatchRow, type Seek } from "./feed-rules.server";
import { afterPosition, INDEX_CAP, insertEntries, nearStatements, NO_VIEWER, orderSql, windowMs, type Position } from "./feed-index.server";
import { ruleOfKey } from "./rule.server";
import type { FeedRule } from "./schema";

/** Candidate rows one backfill step of the engine may read (not a reader's request: larger). */
export const BACKFILL_CANDIDATES = 10_000;
/** Matches one backfill step writes at most. */
export const BACKFILL_PAGE = 1000;
/** Engine steps per backfill message, and the time after which it sends the next message
 * instead: one message stays well inside a consumer's time. */
export const BACKFILL_STEPS = 8;
export const BACKFILL_MS = 2000;

/**
 * Windows short enough that a backfill walks them newest first — every match of the last day or
 * month, then keeps the most liked (a likes-ordered walk would read every older echo of the
 * rule's streams first). A year is half the store's age: its likes-ordered walk is dense.
 */
const walksWindow = (rule: FeedRule) => rule.sortBy === "mostLiked" && (rule.sortTimeRange === "1day" || rule.sortTimeRange === "1month");

/** What backfill messages did: engine steps run, entries they wrote, indexes they finished
 * (`ready`: the rules whose index a step made ready — the consumer writes their scrolls' hints). */
export type Backfilled = { steps: number; backfilled: number; finished: number; ready?: string[] };

/** The walk a backfill takes: the rule's own order, or newest first through its window (walksWindow). */
function walkOf(rule: FeedRule, now: number): FeedRule {
  const w = windowMs(rule);
  if (!walksWindow(rule) || w === null) return rule;
  return { ...rule, sortBy: "newestFirst", sortTimeRange: "allTime", startDate: Math.max(rule.startDate ?? 0, now - w) };
}

/**
 * Build an index a few engine windows further, from where it stopped (its stored cursor: a
 * message delivered twice repeats nothing). A walk in the rule's order is ready when the engine
 * found every match (complete) or the index holds its cap (then its frontier `floor`: every match
 * up to it is in the index, and pages after it come from the engine). A walk through a short
 * window (walksWindow) reads all of it, then keeps the `cap` most liked. The cap is written with
 * the state, whichever way the walk ends (an index built in one message once kept the column's
 * default, 500, and the repair pass's check then cut it there). Returns the next message, if any.
 */
export async function backfillStep(db: Db, ruleKey: string, now = Date.now(), tally?: Backfilled, cap = INDEX_CAP): Promise<Change | null> {
  const fi = tables.feedIndexes;
  const [found] = await batch(db, [
    select(
      {
        id: fi.id,
        state: fi.state,
        cursor: fi.cursor,
        cursorRank: fi.cursorRank,
        entries: sql<number>`(SELECT count(*) FROM (SELECT 1 FROM feed_index_entries WHERE index_id = feed_indexes.id LIMIT ${cap}))`,
      },
      sql`FROM feed_indexes WHERE rule_key = ${ruleKey}`,
    ),
  ]);
  const index = found[0];
  if (!index || index.state === "ready") return null;
  const rule = ruleOfKey(ruleKey);
  const walk = walkOf(rule, now);
  const capped = walk === rule;
  const rankOf = (r: FeedMatchRow) => (rule.sortBy === "mostLiked" ? r.likesCount : 0);
  const window = windowSize(walk, BACKFILL_CANDIDATES);
  let seek: Seek = index.cursor && isId(index.cursor) ? { id: index.cursor, likes: index.cursorRank ?? undefined } : null;
  let entries = index.entries;
  const started = Date.now();
  for (let step = 0; step < BACKFILL_STEPS && Date.now() - started < BACKFILL_MS; step++) {
    // no more than the cap needs (posts a building index took count too: at least one)
    const want = capped ? Math.max(1, Math.min(BACKFILL_PAGE, cap - entries)) : BACKFILL_PAGE;
    const [rows] = await batch(db, [feedMatchQuery(walk, NO_VIEWER, now, seek, want, window)]);
    const fed = feedPage(walk, rows, want, now);
    if (tally) {
      tally.steps++;
      tally.backfilled += fed.rows.length;
    }
    if (fed.rows.length > 0) {
      await batch(db, [insertEntries(fed.rows.map((r) => [index.id, rankOf(r), r.id]))]);
      entries += fed.rows.length;
    }
    const after = fed.after;
    if (!fed.hasMore || after === null || (capped && entries >= cap)) tally?.ready?.push(ruleKey);
    if (!fed.hasMore || after === null) return capped ? markReady(db, rule, index.id, null, cap, now) : keepMostLiked(db, rule, index.id, cap, now);
    seek = { id: after.id, likes: after.likesCount };
    if (capped && entries >= cap) return markReady(db, rule, index.id, { rank: rankOf(after), id: after.id }, cap, now);
  }
  await batch(db, [
    sql`UPDATE feed_indexes SET cursor = ${seek?.id ?? null}, cursor_rank = ${seek?.likes ?? null}, cap = ${cap}, updated_at = ${now}
        WHERE id = ${index.id} AND state = 'building'`,
  ]);
  return { type: "backfill", ruleKey, cursor: seek?.id ?? null };
}


/** Ready, keeping `cap` entries: complete, or reaching its frontier `floor` (what a like message or a walk put after it goes). */
export async function markReady(db: Db, rule: FeedRule, id: number, floor: Position | null, cap: number, now: number): Promise<null> {
  await batch(db, readyStatements(rule, id, floor, cap, now, now));
  return null;
}

/** markReady's batch; `updatedAt` is when its slices last grew (an extension shrinks a day after: feed-index-extend). */
export const readyStatements = (rule: FeedRule, id: number, floor: Position | null, cap: number, now: number, updatedAt: number): SQL[] => [
  ...(floor ? [sql`DELETE FROM feed_index_entries WHERE index_id = ${id} AND ${afterPosition(rule, floor)}`] : []),
  sql`UPDATE feed_indexes SET state = 'ready', cap = ${cap}, complete = ${floor ? 0 : 1}, floor = ${floor?.id ?? null}, floor_rank = ${floor?.rank ?? null},
      cursor = NULL, cursor_rank = NULL, updated_at = ${updatedAt}, checked_at = ${now} WHERE id = ${id}`,
  // where a reader's pages ask for the index to reach deeper (decision 020, "Deeper on demand")
  ...nearStatements(rule, id, floor, cap),
];

/** After a walk through a window: the `cap` most liked stay, the cap-th is the frontier. */
async function keepMostLiked(db: Db, rule: FeedRule, id: number, cap: number, now: number): Promise<null> {
  const [cut] = await batch(db, [cutAt(rule, id, cap)]);
  return markReady(db, rule, id, cut.length > 1 ? { rank: cut[0]!.rank, id: cut[0]!.echoId } : null, cap, now);
}

/** The index's cap-th entry and the one after it, if any: two rows mean it holds more than it keeps. */
export const cutAt = (rule: FeedRule, id: number, cap: number) =>
  select(
    { rank: tables.feedIndexEntries.rank, echoId: tables.feedIndexEntries.echoId },
    sql`FROM feed_index_entries WHERE index_id = ${id} ORDER BY ${orderSql(rule)} LIMIT 2 OFFSET ${cap - 1}`,
  );
