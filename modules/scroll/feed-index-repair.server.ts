// The feed index's repair pass (the cron, every 5 minutes; decision 020): nothing lost, nothing
// drifts. Feeds keyed, stuck backfills resumed, aged entries removed, older builds rebuilt, the
// top of each index checked against the engine, orphans dropped; the replays beside it
// (feed-index-replay.server.ts).
import { batch, select, sendChanges, sql, tables, type AppContext, type Change, type Db, type SQL } from "../shared/index.server";
import { feedMatchQuery, feedPage, windowSize, type FeedMatchRow } from "./feed-rules.server";
import { cutAt, markReady } from "./feed-index-backfill.server";
import { relayLikes, replayPosts, sweepRanks } from "./feed-index-replay.server";
import { shrinkExtended } from "./feed-index-extend.server";
import { checkViewerIndexes } from "./feed-viewer-check.server";
import { unreadKindText } from "./feed-viewer-index.server";
import { sweepAged } from "./feed-index-aging.server";
import { before, deleteEntries, INDEX_CAP, indexKeyOf, indexStatements, insertEntries, nearStatements, NO_VIEWER, orderSql, reachOf, ruleTerms, type Entry, type Position } from "./feed-index.server";
import { ruleColumns, ruleOfKey, toRule } from "./rule.server";

/** Below this many entries a windowed index whose frontier aged is built again. */
const DRAINED = 250;

/** Ready indexes checked per pass (the longest unchecked first), and the depth each is compared to. */
const REPAIR_INDEXES = 20;
const REPAIR_DEPTH = 100;
/** Candidate rows the repair's engine read may use per index. */
const REPAIR_CANDIDATES = 5000;
/** A backfill that has not moved for this long lost its message: it is sent again. */
const STUCK_MS = 60_000;
/** Older builds' indexes built again per pass (rebuildOlder). */
const OLDER_PER_PASS = 5;

export type Repaired = {
  keyed: number;
  resumed: number;
  replayed: number;
  checked: number;
  added: number;
  removed: number;
  trimmed: number;
  dropped: number;
  aged: number;
  rebuilt: number;
  /** older builds' indexes that kept less than INDEX_CAP short of their rule's end, built again (rebuildOlder) */
  older: number;
  /** entries the rank sweep looked at, and the echos it found out of step (lost like or delete messages) */
  swept: number;
  resynced: number;
  /** echos whose like count moved since the last pass, sent through the consumer again (relayLikes) */
  relayed: number;
  /** extended indexes that gave back a slice (shrinkExtended) */
  shrunk: number;
};

/** Feeds keyed per pass (FEED_INDEX_KEYS_PER_PASS overrides: `npm run bench:data` keys a whole store). */
const KEYS_PER_PASS = 50;
/**
 * One repair pass, bounded: existing feeds without a key get their index; stuck backfills are
 * sent again (from their stored cursor); windowed indexes lose the entries that aged out, and one
 * that kept fewer than DRAINED entries while matches may lie past its frontier is built again;
 * the indexes checked longest ago are compared with the engine over their first REPAIR_DEPTH
 * matches — what is missing is written, what should not be there (an echo deleted while its
 * message was lost, a like count that moved) is fixed — and trimmed back to their cap;
 * indexes no scroll reads any more are dropped.
 */
export async function repairIndexes(
  app: Pick<AppContext, "env" | "ctx">,
  db: Db,
  now = Date.now(),
  indexes = REPAIR_INDEXES,
  keys = KEYS_PER_PASS,
  moved: readonly string[] = [],
): Promise<Repaired> {
  const done: Repaired = { keyed: 0, resumed: 0, replayed: 0, checked: 0, added: 0, removed: 0, trimmed: 0, dropped: 0, aged: 0, rebuilt: 0, older: 0, swept: 0, resynced: 0, relayed: 0, shrunk: 0 };
  done.replayed = await replayPosts(app, db, now);
  done.relayed = await relayLikes(app, db, moved, now);
  Object.assign(done, await sweepRanks(app, db, now));
  done.shrunk = await shrinkExtended(db, now);
  const sc = tables.scrolls;
  const fi = tables.feedIndexes;
  // windowed indexes lose the entries that left their window (feed-index-aging.server.ts)
  const aging = Number((app.env as { FEED_INDEX_AGING_PER_PASS?: string }).FEED_INDEX_AGING_PER_PASS) || undefined;
  const { aged, touched } = await sweepAged(db, now, aging);
  const [unkeyed, stuck, due, orphans, older] = await batch(db, [
    select({ id: sc.id, ...ruleColumns(sc) }, sql`FROM scrolls WHERE type = 'feed' AND rule_key IS NULL LIMIT ${keys}`),
    select({ ruleKey: fi.ruleKey }, sql`FROM feed_indexes WHERE state = 'building' AND updated_at < ${now - STUCK_MS} LIMIT 20`),
    select(
      { id: fi.id, ruleKey: fi.ruleKey, complete: fi.complete, floor: fi.floor, floorRank: fi.floorRank, cap: fi.cap, near: fi.near },
      sql`FROM feed_indexes WHERE state = 'ready' AND (complete = 1 OR floor IS NOT NULL) AND viewer_id IS NULL ORDER BY checked_at LIMIT ${indexes}`,
    ),
    // (a viewer index — decision 033 — goes with its rule's index or its viewer, and when its
    // kind is not the one its viewer's pages read: a hiding message lost, or an index made before
    // moderation stopped counting in the kind — resetHiding's rule, unreadKindText)
    select(
      { id: fi.id },
      sql`FROM feed_indexes WHERE (viewer_id IS NULL AND NOT EXISTS (SELECT 1 FROM scrolls WHERE rule_key = feed_indexes.rule_key))
        OR (viewer_id IS NOT NULL AND (NOT EXISTS (SELECT 1 FROM feed_indexes b WHERE b.rule_key = substr(feed_indexes.rule_key, length(feed_indexes.viewer_id) + 4))
          OR NOT EXISTS (SELECT 1 FROM users WHERE users.id = feed_indexes.viewer_id) OR ${sql.raw(unreadKindText())})) LIMIT 5`,
    ),
    // an older build's index that stops short of its rule's end with less than INDEX_CAP: one kept
    // empty as "dense" (cap 0, no frontier), or one cut at the column's default 500
    select(
      { id: fi.id, ruleKey: fi.ruleKey },
      sql`FROM feed_indexes WHERE state = 'ready' AND complete = 0 AND (floor IS NULL OR cap < ${INDEX_CAP}) AND viewer_id IS NULL LIMIT ${OLDER_PER_PASS}`,
    ),
  ]);
  const backfills: Change[] = [];
  const keying: SQL[] = [];
  for (const row of unkeyed) {
    const rule = toRule(row);
    const key = indexKeyOf(rule);
    keying.push(sql`UPDATE scrolls SET rule_key = ${key} WHERE id = ${row.id}`, ...indexStatements(rule, sql`1`, now));
    if (key) backfills.push({ type: "backfill", ruleKey: key, cursor: null });
  }
  if (keying.length > 0) await batch(db, keying);
  done.keyed = unkeyed.length;
  for (const { ruleKey } of stuck) backfills.push({ type: "backfill", ruleKey, cursor: null });
  done.resumed = stuck.length;
  // drained: an incomplete windowed index that kept fewer than half its entries is built again
  // (its frontier can only fall by walking the window once more); pages read the engine meanwhile
  done.aged = aged;
  if (touched.length > 0) {
    const [drained] = await batch(db, [
      sql`UPDATE feed_indexes SET state = 'building', cursor = NULL, cursor_rank = NULL, complete = 0, floor = NULL, floor_rank = NULL, updated_at = ${now}
        WHERE id IN (SELECT value FROM json_each(${JSON.stringify(touched)})) AND state = 'ready' AND complete = 0 AND viewer_id IS NULL
          AND (SELECT count(*) FROM (SELECT 1 FROM feed_index_entries WHERE index_id = feed_indexes.id LIMIT ${DRAINED})) < ${DRAINED}
        RETURNING rule_key`,
    ]);
    for (const r of drained as { rule_key: string }[]) backfills.push({ type: "backfill", ruleKey: r.rule_key, cursor: null });
    done.rebuilt = drained.length;
  }
  if (older.length > 0) {
    await rebuildOlder(db, older, now);
    backfills.push(...older.map(({ ruleKey }): Change => ({ type: "backfill", ruleKey, cursor: null })));
    done.older = older.length;
  }
  if (backfills.length > 0) sendChanges(app, backfills);
  for (const index of due) {
    const fixed = await checkIndex(db, index, now);
    done.checked++;
    done.added += fixed.added;
    done.removed += fixed.removed;
    done.trimmed += fixed.trimmed;
  }
  // viewer indexes after their rules' (decision 033): each against its rule's index less its viewer's likes
  const viewers = await checkViewerIndexes(db, now);
  done.checked += viewers.checked;
  done.added += viewers.added;
  done.removed += viewers.removed;
  if (orphans.length > 0) {
    const ids = JSON.stringify(orphans.map((o) => o.id));
    await batch(db, [
      sql`DELETE FROM feed_index_entries WHERE index_id IN (SELECT value FROM json_each(${ids}))`,
      sql`DELETE FROM feed_rule_terms WHERE index_id IN (SELECT value FROM json_each(${ids}))`,
      sql`DELETE FROM feed_indexes WHERE id IN (SELECT value FROM json_each(${ids}))`,
    ]);
    done.dropped = orphans.length;
  }
  return done;
}

/**
 * Older builds' indexes built again from the start, as a new rule's would be (decision 020, "No
 * dense rules"): their terms back (a "dense" one had none, so posts reach it while it builds),
 * their entries kept until the walk rewrites them; pages read the engine meanwhile.
 */
async function rebuildOlder(db: Db, indexes: { id: number; ruleKey: string }[], now: number) {
  await batch(
    db,
    indexes.flatMap(({ id, ruleKey }) => [
      sql`INSERT OR IGNORE INTO feed_rule_terms (term, index_id) SELECT value, ${id} FROM json_each(${JSON.stringify(ruleTerms(ruleOfKey(ruleKey)))})`,
      sql`UPDATE feed_indexes SET state = 'building', cap = ${INDEX_CAP}, complete = 0, floor = NULL, floor_rank = NULL, cursor = NULL,
          cursor_rank = NULL, updated_at = ${now} WHERE id = ${id} AND state = 'ready'`,
    ]),
  );
}


/**
 * Compare one index's first entries with the engine's first matches, in the feed's order, over
 * the range both reached (not past the index's frontier): what is missing, or stands at another
 * like count, is written; what should not be there is removed; then it is trimmed to its cap.
 */
async function checkIndex(db: Db, index: { id: number; ruleKey: string; complete: boolean; floor: string | null; floorRank: number | null; cap: number; near: string | null }, now: number) {
  const rule = ruleOfKey(index.ruleKey);
  const window = windowSize(rule, REPAIR_CANDIDATES);
  const ie = tables.feedIndexEntries;
  const [rows, held] = await batch(db, [
    feedMatchQuery(rule, NO_VIEWER, now, null, REPAIR_DEPTH, window),
    select({ echoId: ie.echoId, rank: ie.rank }, sql`FROM feed_index_entries WHERE index_id = ${index.id} ORDER BY ${orderSql(rule)} LIMIT ${REPAIR_DEPTH + 1}`),
  ]);
  const fed = feedPage(rule, rows, REPAIR_DEPTH);
  const rankOf = (r: FeedMatchRow) => (rule.sortBy === "mostLiked" ? r.likesCount : 0);
  // the compared range: from the top to where the engine's read ended (all of it when it found
  // every match), to the index's frontier, and to the last of the entries read
  const ends: Position[] = [];
  if (fed.hasMore && fed.after) ends.push({ rank: rankOf(fed.after), id: fed.after.id });
  const reach = reachOf(index);
  if (!reach.complete && reach.floor) ends.push(reach.floor);
  if (held.length > REPAIR_DEPTH) ends.push({ rank: held[REPAIR_DEPTH - 1]!.rank, id: held[REPAIR_DEPTH - 1]!.echoId });
  const within = (p: Position) => ends.every((end) => !before(rule, end, p));
  const should = new Map(fed.rows.map((r) => [r.id, rankOf(r)] as const).filter(([id, rank]) => within({ rank, id })));
  const has = new Map(held.map((h) => [h.echoId, h.rank] as const).filter(([id, rank]) => within({ rank, id })));
  const missing: Entry[] = [...should].filter(([id, rank]) => has.get(id) !== rank).map(([id, rank]) => [index.id, rank, id]);
  const extra = [...has.keys()].filter((id) => !should.has(id));
  const statements: SQL[] = [];
  const leaving = [...extra, ...missing.map(([, , id]) => id)].map((id): [number, string] => [index.id, id]);
  if (leaving.length > 0) statements.push(deleteEntries(leaving));
  if (missing.length > 0) statements.push(insertEntries(missing));
  if (statements.length > 0) await batch(db, statements);
  // back to its cap: the frontier moves up to the last kept, and the index is no longer complete
  // (a complete index of an older build may carry the column's default, 500, for a cap it never
  // held: it keeps INDEX_CAP)
  const cap = index.complete ? Math.max(index.cap, INDEX_CAP) : index.cap;
  const [cut] = await batch(db, [cutAt(rule, index.id, cap)]);
  const trimmed = cut.length > 1;
  if (trimmed) await markReady(db, rule, index.id, { rank: cut[0]!.rank, id: cut[0]!.echoId }, cap, now);
  else {
    // an index built before its near marker existed (migration 0036) gets it here, once
    const near = !reach.complete && reach.floor && index.near === null ? nearStatements(rule, index.id, reach.floor, index.cap) : [];
    await batch(db, [sql`UPDATE feed_indexes SET checked_at = ${now} WHERE id = ${index.id}`, ...near]);
  }
  return { added: missing.length, removed: extra.length, trimmed: trimmed ? 1 : 0 };
}
