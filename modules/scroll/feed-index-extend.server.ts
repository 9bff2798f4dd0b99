// The feed index, deeper on demand (issue 27, decision 020 "Deeper on demand"). An index keeps its
// rule's first INDEX_CAP matches; past that frontier the engine served, and there a rule of more
// than 5 streams filled at most 16 of a page's 20 (its window), and the page crossing the frontier
// could lose an echo two streams found. Now a reader's page past the index's near marker (the
// entry EXTEND_AHEAD before its frontier) asks the consumer to extend the index by another slice:
// the engine walks on from the frontier, a step at a time, each step's entries and the frontier
// moved in one batch (so the index always holds every match up to its frontier). A reader paging
// on meets a frontier that has already moved. Storage stays bounded by reading: a slice is added
// only for a reader who read up to its near marker, and an index no reader extended for a day gives
// a slice back a pass (shrinkExtended), down to INDEX_CAP.
import { batch, select, sendChanges, sql, tables, type AppContext, type Change, type Db } from "../shared/index.server";
import { feedMatchQuery, feedPage, windowSize, type FeedMatchRow } from "./feed-rules.server";
import { BACKFILL_CANDIDATES, BACKFILL_MS, BACKFILL_PAGE, BACKFILL_STEPS, cutAt, readyStatements, type Backfilled } from "./feed-index-backfill.server";
import { before, INDEX_CAP, insertEntries, nearStatements, NO_VIEWER, type IndexReach, type Position } from "./feed-index.server";
import { ruleOfKey } from "./rule.server";
import type { FeedRule } from "./schema";

/** Matches one extension adds: another INDEX_CAP (500 pages of 20). */
export const EXTEND_SLICE = INDEX_CAP;
/** An extended index no reader extended for this long gives back a slice a repair pass. */
export const EXTEND_KEEP_MS = 24 * 3_600_000;
/** Extended indexes shrunk per repair pass. */
const SHRINK_PER_PASS = 5;

/** Extensions this isolate asked for, by rule key and frontier (a reader's every page past the marker asks once). */
const asked = new Set<string>();
const ASKED_MAX = 1000;

/**
 * A reader's page at `position`: past the index's near marker (or its frontier, for an index
 * built before the marker existed), ask for the index to reach deeper — one message per frontier
 * from this isolate (the consumer skips a repeat whose frontier has moved since).
 */
export function askToExtend(app: Pick<AppContext, "env" | "ctx">, rule: FeedRule, ruleKey: string, st: IndexReach, position: Position): void {
  if (st.complete || st.floor === null) return;
  // an index built before its marker existed gets it from its first reader's page (markNear)
  if (!st.near) askOnce(app, `mark\n${ruleKey}\n${st.floor.id}`, { type: "mark", ruleKey, floor: st.floor.id });
  if (before(rule, position, st.near ?? st.floor)) return;
  askOnce(app, `${ruleKey}\n${st.floor.rank}\n${st.floor.id}`, { type: "extend", ruleKey, floor: st.floor.id });
}

/** Send `change` once from this isolate for `key` (the oldest keys forgotten past ASKED_MAX). */
export function askOnce(app: Pick<AppContext, "env" | "ctx">, key: string, change: Change): void {
  if (asked.has(key)) return;
  if (asked.size >= ASKED_MAX) asked.delete(asked.values().next().value!);
  asked.add(key);
  sendChanges(app, [change]);
}

/**
 * The near markers of indexes built before migration 0036 (decision 020, "Deeper on demand"), as
 * their readers' pages ask (`mark`): one batch reads the indexes, one writes each marker whose
 * index still stands at the frontier named (aheadOf(cap) entries read an index, once). An index
 * nobody reads needs none; the repair pass's check still writes it, 20 indexes a pass.
 */
export async function markNear(db: Db, changes: Extract<Change, { type: "mark" }>[]): Promise<number> {
  const keys = [...new Set(changes.map((c) => c.ruleKey))].slice(0, MARKS_PER_BATCH);
  if (keys.length === 0) return 0;
  const fi = tables.feedIndexes;
  const [found] = await batch(db, [
    select(
      { id: fi.id, ruleKey: fi.ruleKey, floor: fi.floor, floorRank: fi.floorRank, cap: fi.cap },
      sql`FROM feed_indexes WHERE rule_key IN (SELECT value FROM json_each(${JSON.stringify(keys)})) AND state = 'ready' AND complete = 0 AND floor IS NOT NULL AND near IS NULL`,
    ),
  ]);
  const writes = found.flatMap((index) => nearStatements(ruleOfKey(index.ruleKey), index.id, { rank: index.floorRank ?? 0, id: index.floor! }, index.cap));
  if (writes.length > 0) await batch(db, writes);
  return found.length;
}
/** Markers written per consumer batch at most (each reads up to EXTEND_AHEAD entries). */
const MARKS_PER_BATCH = 20;

/**
 * One extension message: the engine walks on from the index's frontier (as the backfill walks,
 * steps of up to BACKFILL_PAGE matches), each step's entries written with the frontier, the cap
 * and the near marker moved in one batch, until `slice` matches were added (then the next message
 * goes on: `left`), the engine found every match (complete), or the frontier is not the one the
 * message names (a repeat, or another extension got there first: nothing). Returns the next message.
 */
export async function extendStep(db: Db, change: Extract<Change, { type: "extend" }>, now = Date.now(), tally?: Backfilled, slice = EXTEND_SLICE): Promise<Change | null> {
  const fi = tables.feedIndexes;
  const [found] = await batch(db, [
    select({ id: fi.id, state: fi.state, complete: fi.complete, floor: fi.floor, floorRank: fi.floorRank, cap: fi.cap }, sql`FROM feed_indexes WHERE rule_key = ${change.ruleKey}`),
  ]);
  const index = found[0];
  if (!index || index.state !== "ready" || index.complete || index.floor === null || index.floor !== change.floor) return null;
  const rule = ruleOfKey(change.ruleKey);
  const rankOf = (r: FeedMatchRow) => (rule.sortBy === "mostLiked" ? r.likesCount : 0);
  const window = windowSize(rule, BACKFILL_CANDIDATES);
  let floor: Position = { rank: index.floorRank ?? 0, id: index.floor };
  let left = change.left ?? slice;
  let cap = index.cap;
  const started = Date.now();
  for (let step = 0; step < BACKFILL_STEPS && Date.now() - started < BACKFILL_MS && left > 0; step++) {
    const want = Math.min(BACKFILL_PAGE, left);
    const [rows] = await batch(db, [feedMatchQuery(rule, NO_VIEWER, now, { id: floor.id, likes: floor.rank }, want, window)]);
    const fed = feedPage(rule, rows, want, now);
    // the new frontier: after the step's last match, or the window's end (every match up to it is
    // in); none when the engine found them all
    const end: Position | null = fed.hasMore && fed.after ? { rank: rankOf(fed.after), id: fed.after.id } : null;
    cap += fed.rows.length;
    left -= fed.rows.length;
    await batch(db, [
      ...(fed.rows.length > 0 ? [insertEntries(fed.rows.map((r) => [index.id, rankOf(r), r.id]))] : []),
      sql`UPDATE feed_indexes SET cap = ${cap}, complete = ${end ? 0 : 1}, floor = ${end?.id ?? null}, floor_rank = ${end?.rank ?? null}, updated_at = ${now}
          WHERE id = ${index.id} AND floor = ${floor.id}`,
      ...nearStatements(rule, index.id, end, cap),
    ]);
    if (tally) {
      tally.steps++;
      tally.backfilled += fed.rows.length;
    }
    if (end === null) return null;
    floor = end;
  }
  return left > 0 ? { type: "extend", ruleKey: change.ruleKey, floor: floor.id, left } : null;
}

/**
 * The repair pass's share (storage bounded by reading): an index extended past INDEX_CAP that no
 * reader extended for EXTEND_KEEP_MS gives back a slice (its frontier moves up; its entries past it
 * go), SHRINK_PER_PASS indexes a pass. Its last-extended time stays, so the next pass goes on.
 */
export async function shrinkExtended(db: Db, now: number, base = INDEX_CAP, slice = EXTEND_SLICE): Promise<number> {
  const fi = tables.feedIndexes;
  const [due] = await batch(db, [
    select(
      { id: fi.id, ruleKey: fi.ruleKey, cap: fi.cap, updatedAt: fi.updatedAt },
      sql`FROM feed_indexes WHERE state = 'ready' AND cap > ${base} AND updated_at < ${now - EXTEND_KEEP_MS} AND viewer_id IS NULL LIMIT ${SHRINK_PER_PASS}`,
    ),
  ]);
  for (const index of due) {
    const rule = ruleOfKey(index.ruleKey);
    const cap = Math.max(base, index.cap - slice);
    const [cut] = await batch(db, [cutAt(rule, index.id, cap)]);
    const floor = cut.length > 1 ? { rank: cut[0]!.rank, id: cut[0]!.echoId } : null;
    // an index that holds no more than the smaller cap keeps what it holds (complete as it was)
    if (floor === null) await batch(db, [sql`UPDATE feed_indexes SET cap = ${cap} WHERE id = ${index.id}`]);
    else await batch(db, readyStatements(rule, index.id, floor, cap, now, index.updatedAt));
  }
  return due.length;
}
