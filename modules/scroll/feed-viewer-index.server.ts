// Viewer indexes (issues 27 and 32, docs/decisions/033-viewer-indexes.md): a feed index of one
// rule for one viewer, whose entries leave out the echos that viewer liked, so a reader who hides
// what they liked and liked long runs of a feed reads one row an entry again (reading on request
// costs two a liked entry: no page of 200 rows steps over a run of more than ~31 of 51).
// The same machinery as the rule's shared index (feed-index.server.ts), keyed differently: a
// feed_indexes row keyed `v:<viewer>:<rule key>` (`viewer_id` set), its entries in
// feed_index_entries, its terms copied from the shared index's, so posts, likes, edits, deletes,
// the replays and the rank sweep reach it as they reach any index; what differs is here — it is
// made (and walked deeper) from the shared index's entries, not the engine, and an entry enters it
// only while its viewer has not liked the echo (insertEntries' `unlikedBy`).
// The hiding kind (issue 32), keyed `h:<viewer>:<rule key>`, is the same less what the viewer hides
// for good (blocks either way, mutes and "hide" words without an end: `seenBy`): a block, mute or
// word change empties it and makes it again
// (`resetHiding`); timed mutes and words, and moderation, stay the page's tests. A hider's index of
// a hide-liked feed, keyed `b:<viewer>:<rule key>` (a rule's key is the same with or without the
// flag), leaves out both (`leftOut`): their `v:` index would leave hidden echos in.
// (Just over 300 lines: the kinds' keys, bounds and eviction, the make and walk, and the reset are
// one life cycle of one table's rows; split, each part would restate the others' key rules.)
import { isId } from "../shared/index";
import { batch, echoSeenForGoodText, lit, select, sql, tables, viewerHidesText, type AppContext, type Change, type Db, type SQL } from "../shared/index.server";
import { askOnce } from "./feed-index-extend.server";
import { afterPosition, before, insertEntries, nearStatements, orderSql, reachesSql, reachOf, topOf, type Entry, type IndexReach, type Position } from "./feed-index.server";
import { NOBODY } from "./feed-rules.server";
import { ruleOfKey } from "./rule.server";
import type { FeedRule } from "./schema";

/** Entries a viewer index holds when made (100 pages of 20), and what a reader's ask adds. */
export const VIEWER_CAP = 2000;
export const VIEWER_SLICE = 2000;
/** Hide-liked viewer indexes (`v:`) one viewer holds at most: a new one evicts the least recently read (not read for KEPT_MS). */
export const VIEWER_INDEXES_MAX = 8;
/** The hiding kinds (`h:`, `b:`), counted apart: a heavy hider reads many feeds, each needing one
 * (decision 033, "Hiders of many feeds": 69 of the 0.1 store's 117 hide-liked feeds asked, and a
 * bound below that evicts, in a reader's order, the very index read next). Made shallower (15
 * pages of 20), deeper on the reader's ask as any: HIDING_INDEXES_MAX × HIDING_CAP entries
 * (~4.0 MB at ~139 B an entry) is a viewer's made depth. */
export const HIDING_INDEXES_MAX = 96;
export const HIDING_CAP = 300;
const kindMax = (hide: boolean) => (hide ? HIDING_INDEXES_MAX : VIEWER_INDEXES_MAX);
/**
 * A make at its kind's bound evicts the least recently read only when that one was last read
 * (noted at most hourly: TOUCH_MS) this long ago; else the new index is not made and the page
 * keeps its fill from the shared index. Why (decision 033, "Kept, not thrashed"): least recently
 * read alone evicts, for a reader of more feeds than the bound in a cycle, the very index read
 * next — the 0.1 store's heavy hider over its 597 feeds was as short on its second pass as on its
 * first (489 of 597 both), every index evicted before it was read. Two days: a reader's daily
 * round keeps the indexes it made; those of feeds no longer read make room after two days.
 */
export const KEPT_MS = 2 * 86_400_000;
/** Which of a viewer's indexes count toward a kind's bound (SQL text over feed_indexes, `alias`): the hiding kinds, or `v:`. */
const kindOfKeyText = (hide: boolean, alias: string) => (hide ? `(${alias}.rule_key LIKE 'h:%' OR ${alias}.rule_key LIKE 'b:%')` : `${alias}.rule_key LIKE 'v:%'`);
/** The same, as SQL. */
export const kindOfKey = (hide: boolean, alias = "feed_indexes") => sql.raw(kindOfKeyText(hide, alias));

/** A viewer index's kind: `v` leaves out what its viewer liked, `h` what they hide for good, `b` both
 * (a hider's index of a hide-liked feed). A message names it by `hide` and `liked`. */
export type ViewerKind = "v" | "h" | "b";
export const kindOfChange = (c: { hide?: true; liked?: true }): ViewerKind => (c.hide ? (c.liked ? "b" : "h") : "v");
export const changeOfKind = (kind: ViewerKind) => (kind === "v" ? {} : kind === "h" ? { hide: true as const } : { hide: true as const, liked: true as const });
/** The kind of a viewer index's key. */
export const viewerKindOf = (key: string) => key.slice(0, 1) as ViewerKind;
/**
 * The kind of index a reader's hide-liked page reads, asked in SQL of a viewer expression (a
 * column or a literal) and a rule key's: `b` where they hide anyone or any word (the test a page
 * chooses its kind by, `viewerHidesText`; moderation, the page's own test, does not count), else `v` — and whether
 * they have that index of the rule (`has`) or hold as many of its kinds as its bound (`full`:
 * HIDING_INDEXES_MAX for `b`, counted with `h:`; VIEWER_INDEXES_MAX for `v`). What a make on like
 * or by the cron's walk makes (feed-viewer-eager, feed-viewer-walk: decision 033, "Hiders of
 * hide-liked feeds"): a hider's `v:` index is never read.
 */
export function hideLikedKindSql(viewerText: string, ruleKeyText: string) {
  const kind = `(CASE WHEN ${viewerHidesText(viewerText)} THEN 'b' ELSE 'v' END)`;
  const ofKind = `(CASE ${kind} WHEN 'b' THEN ${kindOfKeyText(true, "hv")} ELSE ${kindOfKeyText(false, "hv")} END)`;
  return {
    has: sql.raw(`EXISTS (SELECT 1 FROM feed_indexes hv WHERE hv.rule_key = ${kind} || ':' || ${viewerText} || ':' || ${ruleKeyText})`),
    full: sql.raw(`((SELECT count(*) FROM feed_indexes hv WHERE hv.viewer_id = ${viewerText} AND ${ofKind}) >= (CASE ${kind} WHEN 'b' THEN ${HIDING_INDEXES_MAX} ELSE ${VIEWER_INDEXES_MAX} END))`),
  };
}

/** Shared entries one walk step reads (with a likes probe each), and steps a message runs. */
const VIEWER_STEP = 1000;
const VIEWER_STEPS = 8;
const VIEWER_MS = 2000;
/** A reader's page notes it read a viewer index (for eviction) at most this often per isolate. */
const TOUCH_MS = 3_600_000;
/** A short page from the shared index asks for the reader's index at most this often per isolate:
 * again after that, as one evicted (a reader of more than VIEWER_INDEXES_MAX feeds) is otherwise
 * never made again while the isolate lives. A repeat for an index that exists does nothing. */
const ASK_AGAIN_MS = 600_000;

/** A viewer index's key (`hide`: true the hiding kind, or a kind named). */
export const viewerKeyOf = (ruleKey: string, viewerId: string, hide: boolean | ViewerKind = false) => `${typeof hide === "string" ? hide : hide ? "h" : "v"}:${viewerId}:${ruleKey}`;
/** Whether a reader may have a viewer index (a user; not a web feed's reader). */
export const mayHaveViewerIndex = (rule: FeedRule, viewerId: string) => rule.excludeLikedEchos && isId(viewerId) && viewerId !== NOBODY;
/** Whether a reader may have a hiding viewer index of a rule: a user who hides anyone or any word
 * (`hiding`, the isolate's `hidesHint`: moderation does not count); of a hide-liked rule it leaves
 * out what they liked too. */
export const mayHaveHidingIndex = (_rule: FeedRule, viewerId: string, hiding: boolean) => hiding && isId(viewerId) && viewerId !== NOBODY;

/**
 * Which index an indexed feed page reads (SQL, `readKey`) for this viewer, always chosen in SQL
 * (its run is shorter only where the viewer has that index: feed-index-pages' `choiceOf`): a
 * hider's `b:` of a hide-liked rule (their `v:` one leaves hidden echos in) or `h:` of another,
 * anyone else's `v:` of a hide-liked rule, else the rule's. `own`: the page may read a viewer
 * index; `kind`: the one it may read, and a short page asks for.
 */
export function viewerChoice(rule: FeedRule, ruleKey: string, viewerId: string, at: Position, hiding: boolean) {
  const liked = mayHaveViewerIndex(rule, viewerId);
  const hider = mayHaveHidingIndex(rule, viewerId, hiding);
  const kind: ViewerKind = hider ? (liked ? "b" : "h") : "v";
  const readKey = kind !== "v" || liked ? viewerReadKey(rule, ruleKey, viewerId, at, kind) : ruleKey;
  return { own: liked || hider, kind, readKey };
}

/** Whether an echo stays out of a viewer's index of this kind (SQL over its id, 1 or 0): liked
 * (`v`, a likes probe), hidden for good (`h`, a probe of its echo row), either (`b`). */
export function leftOut(kind: ViewerKind, viewerId: string, echoId: string): SQL<number> {
  const liked = sql`EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = ${sql.raw(echoId)} AND l.user_id = ${viewerId})`;
  const hidden = sql`NOT ifnull((SELECT ${sql.raw(echoSeenForGoodText(lit(viewerId), "pe"))} FROM echos pe WHERE pe.id = ${sql.raw(echoId)}), 0)`;
  return kind === "v" ? sql<number>`${liked}` : kind === "h" ? sql<number>`${hidden}` : sql<number>`(${hidden} OR ${liked})`;
}

/** Entries written into a viewer index of this kind, guarded in SQL by what it leaves out (as `leftOut`). */
export const insertViewerEntries = (entries: Entry[], kind: ViewerKind, viewerId: string) =>
  insertEntries(entries, kind === "h" ? null : viewerId, kind === "v" ? null : viewerId);

/**
 * The key a hide-liked page reads (a constant of its statement, SQL): the viewer's index when it
 * is ready and reaches the page's position, else the rule's shared one. Its probe reads the
 * viewer index's row (one row; none when the viewer has none).
 */
export function viewerReadKey(rule: FeedRule, ruleKey: string, viewerId: string, at: Position, hide: boolean | ViewerKind = false): SQL {
  const key = viewerKeyOf(ruleKey, viewerId, hide);
  return sql`(CASE WHEN EXISTS (SELECT 1 FROM feed_indexes v WHERE v.rule_key = ${key} AND v.state = 'ready' AND (v.complete = 1 OR ${reachesSql(rule, at, "v")}))
    THEN ${key} ELSE ${ruleKey} END)`;
}

/**
 * After a hide-liked page: from the shared index and short (a run of liked entries the page could
 * not step over), ask for the viewer's index; from the viewer's index, note the read (eviction)
 * and, past its near marker, ask it to reach deeper (as askToExtend does for a shared index).
 */
export function afterViewerPage(
  app: Pick<AppContext, "env" | "ctx">,
  rule: FeedRule,
  ruleKey: string,
  viewerId: string,
  read: { viewer: boolean; short: boolean; st: IndexReach; position: Position; kind: ViewerKind },
  now = Date.now(),
) {
  const key = viewerKeyOf(ruleKey, viewerId, read.kind);
  const kind = changeOfKind(read.kind);
  if (!read.viewer) {
    if (read.short) askOnce(app, `viewer\n${key}\n${Math.floor(now / ASK_AGAIN_MS)}`, { type: "viewer", ruleKey, viewerId, floor: null, ...kind });
    return;
  }
  askOnce(app, `touch\n${key}\n${Math.floor(now / TOUCH_MS)}`, { type: "viewer", ruleKey, viewerId, floor: null, touch: true, ...kind });
  const { st, position } = read;
  if (st.complete || st.floor === null || before(rule, position, st.near ?? st.floor)) return;
  askOnce(app, `viewer\n${key}\n${st.floor.rank}\n${st.floor.id}`, { type: "viewer", ruleKey, viewerId, floor: st.floor.id, ...kind });
}

type ViewerChange = Extract<Change, { type: "viewer" }>;

/**
 * One viewer message in the consumer: make the viewer's index of the rule (evicting their least
 * recently read past its kind's bound, if not read for KEPT_MS; else not made) and walk it from the top, or walk it on from the frontier
 * the message names (a repeat whose frontier moved does nothing), or only note the read. A walk
 * step reads the shared index's next entries and writes the unliked ones, the new frontier (the
 * last entry walked; complete at a complete shared index's end), the cap and the near marker in
 * one batch, so the viewer index always holds every unliked match up to its frontier.
 * Returns the next message, if any.
 */
export async function viewerStep(db: Db, change: ViewerChange, now = Date.now(), cap = change.hide ? HIDING_CAP : VIEWER_CAP, slice = VIEWER_SLICE): Promise<Change | null> {
  const hide = change.hide === true;
  const kind = kindOfChange(change);
  const key = viewerKeyOf(change.ruleKey, change.viewerId, kind);
  const fi = tables.feedIndexes;
  const row = { id: fi.id, complete: fi.complete, floor: fi.floor, floorRank: fi.floorRank, cap: fi.cap };
  const read = () =>
    batch(db, [
      select(row, sql`FROM feed_indexes WHERE rule_key = ${change.ruleKey} AND state = 'ready' AND viewer_id IS NULL`),
      select(row, sql`FROM feed_indexes WHERE rule_key = ${key}`),
    ]);
  let [shared, mine] = await read();
  if (change.touch) {
    if (mine[0]) await batch(db, [sql`UPDATE feed_indexes SET updated_at = ${now} WHERE id = ${mine[0].id}`]);
    return null;
  }
  const base = shared[0];
  // (a shared index that reaches nowhere — an older build's, rebuilt by the repair pass — has nothing to copy)
  if (!base || !isId(change.viewerId) || (!base.complete && base.floor === null)) return null;
  if (!mine[0]) {
    if (change.floor !== null) return null;
    // made on like (feed-viewer-eager.server.ts): only into a free place, never evicting
    if (change.eager) {
      const [held] = await batch(db, [select({ n: sql<number>`count(*)` }, sql`FROM feed_indexes WHERE viewer_id = ${change.viewerId} AND ${kindOfKey(hide)}`)]);
      if ((held[0]?.n ?? 0) >= kindMax(hide)) return null;
    }
    await batch(db, makeStatements(key, change.viewerId, base.id, cap, now, hide));
    [shared, mine] = await read();
  }
  const index = mine[0];
  if (!index || index.complete || index.floor !== change.floor) return null;
  const rule = ruleOfKey(change.ruleKey);
  // a new index walks to its cap; an ask from its frontier adds a slice; a next message its `left`
  let left = change.left ?? (change.floor === null ? index.cap : slice);
  const total = change.left === undefined && change.floor !== null ? index.cap + slice : index.cap;
  let floor: Position | null = index.floor === null ? null : { rank: index.floorRank ?? 0, id: index.floor };
  const baseReach = reachOf(base);
  const started = Date.now();
  for (let step = 0; step < VIEWER_STEPS && Date.now() - started < VIEWER_MS && left > 0; step++) {
    const [walked] = await batch(db, [walkQuery(rule, base.id, change.viewerId, floor ?? topOf(rule), kind)]);
    const within = walked.filter((w) => baseReach.complete || (baseReach.floor !== null && !before(rule, baseReach.floor, { rank: w.rank, id: w.echoId })));
    // cut at the `left`-th unliked entry: the frontier is there
    let kept = 0;
    let cut = within.length;
    for (let i = 0; i < within.length && cut === within.length; i++) if (!within[i]!.liked && ++kept === left) cut = i + 1;
    const taken = within.slice(0, cut);
    const unliked = taken.filter((w) => !w.liked);
    const last = taken[taken.length - 1];
    // the shared index's end: complete when it is; else its frontier (the viewer's reaches as far)
    const atEnd = cut === within.length && walked.length < VIEWER_STEP;
    const end: Position | null = atEnd ? (baseReach.complete ? null : (baseReach.floor ?? floor)) : { rank: last!.rank, id: last!.echoId };
    left -= unliked.length;
    await batch(db, [
      ...(unliked.length > 0 ? [insertViewerEntries(unliked.map((w) => [index.id, w.rank, w.echoId]), kind, change.viewerId)] : []),
      sql`UPDATE feed_indexes SET cap = ${total}, complete = ${end ? 0 : 1}, floor = ${end?.id ?? null}, floor_rank = ${end?.rank ?? null}, updated_at = ${now}
          WHERE id = ${index.id} AND floor IS ${floor?.id ?? null}`,
      ...nearStatements(rule, index.id, end, total),
    ]);
    if (end === null || atEnd) return null;
    floor = end;
  }
  return left > 0 && floor ? { type: "viewer", ruleKey: change.ruleKey, viewerId: change.viewerId, floor: floor.id, left, ...changeOfKind(kind) } : null;
}

/** The shared index's next entries after `from`, each with whether the viewer's index leaves it
 * out (`liked`: `leftOut`, a likes probe or a probe of its echo row, or both). */
const walkQuery = (rule: FeedRule, baseId: number, viewerId: string, from: Position, kind: ViewerKind) =>
  select(
    {
      echoId: tables.feedIndexEntries.echoId,
      rank: tables.feedIndexEntries.rank,
      liked: leftOut(kind, viewerId, "feed_index_entries.echo_id"),
    },
    sql`FROM feed_index_entries WHERE index_id = ${baseId} AND ${afterPosition(rule, from)} ORDER BY ${orderSql(rule)} LIMIT ${VIEWER_STEP}`,
  );


/** A viewer index made: its row (ready, reaching nowhere until its first step), the shared index's
 * terms, and the viewer's least recently read indexes of its kind past the kind's bound - 1 gone. */
function makeStatements(key: string, viewerId: string, baseId: number, cap: number, now: number, hide: boolean): SQL[] {
  const others = sql`FROM feed_indexes WHERE viewer_id = ${viewerId} AND ${kindOfKey(hide)} AND rule_key <> ${key}`;
  // past the bound - 1 by last read, and not read for KEPT_MS
  const evicted = sql`SELECT id FROM (SELECT id, updated_at ${others} ORDER BY updated_at DESC LIMIT -1 OFFSET ${kindMax(hide) - 1}) WHERE updated_at < ${now - KEPT_MS}`;
  const made = sql`(SELECT id FROM feed_indexes WHERE rule_key = ${key})`;
  return [
    sql`DELETE FROM feed_index_entries WHERE index_id IN (${evicted})`,
    sql`DELETE FROM feed_rule_terms WHERE index_id IN (${evicted})`,
    sql`DELETE FROM feed_indexes WHERE id IN (${evicted})`,
    // made only into a place the bound leaves (the evictions above made one, or none was kept)
    sql`INSERT INTO feed_indexes (rule_key, state, cap, complete, viewer_id, created_at, updated_at) SELECT ${key}, 'ready', ${cap}, 0, ${viewerId}, ${now}, ${now}
        WHERE (SELECT count(*) ${others}) < ${kindMax(hide)}
        ON CONFLICT (rule_key) DO NOTHING`,
    sql`INSERT OR IGNORE INTO feed_rule_terms (term, index_id) SELECT term, ${made} FROM feed_rule_terms WHERE index_id = ${baseId} AND ${made} IS NOT NULL`,
  ];
}

/** A viewer index of the kind no page of its viewer reads (SQL over feed_indexes, `alias`): a `v:`
 * one of a viewer who hides anyone or any word (their pages read `b:`), an `h:` or `b:` one of a
 * viewer who hides nothing (their pages read `v:` or the rule's). Moderation counts in neither. */
export const unreadKindText = (alias = "feed_indexes") => {
  const hides = viewerHidesText(`${alias}.viewer_id`);
  return `((${kindOfKeyText(false, alias)} AND ${hides}) OR (${kindOfKeyText(true, alias)} AND NOT ${hides}))`;
};

/**
 * A block, mute or muted-word change of these viewers (`hiding` messages), in one batch: the
 * indexes of the kind no page of theirs reads any more (`unreadKindText`) dropped — entries,
 * terms, rows —, and each hiding index they still read emptied and reaching nowhere again (pages
 * read the shared index meanwhile, their own tests on top), with a make message for each: a
 * bounded walk again, at most HIDING_INDEXES_MAX × HIDING_CAP entries a viewer. A walk message of
 * an old index names a frontier that is gone, and does nothing. Dropped, not left to eviction:
 * eviction runs only on a make of the same kind, and a hider makes no `v:` (hideLikedKindSql), a
 * reader who hides nothing no `h:`/`b:` — left, each would be written by every post and like it
 * reaches, unread: up to VIEWER_INDEXES_MAX × ~0.28 MB a new hider, ~4.0 MB a reader who stopped.
 */
export async function resetHiding(db: Db, viewerIds: string[], now = Date.now()): Promise<Change[]> {
  const ids = viewerIds.filter(isId);
  if (ids.length === 0) return [];
  const fi = tables.feedIndexes;
  const theirs = sql`viewer_id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
  const unread = sql`SELECT id FROM feed_indexes WHERE ${theirs} AND ${sql.raw(unreadKindText())}`;
  // (after the drop, what is left of their hiding kinds is read: theirs to remake)
  const mine = sql`${theirs} AND ${kindOfKey(true)}`;
  const drop = (from: "feed_index_entries" | "feed_rule_terms" | "feed_indexes") => sql`DELETE FROM ${sql.raw(from)} WHERE ${sql.raw(from === "feed_indexes" ? "id" : "index_id")} IN (${unread})`;
  const [, , , indexes] = await batch(db, [
    drop("feed_index_entries"),
    drop("feed_rule_terms"),
    drop("feed_indexes"),
    select({ ruleKey: fi.ruleKey, viewerId: fi.viewerId }, sql`FROM feed_indexes WHERE ${mine}`),
    sql`DELETE FROM feed_index_entries WHERE index_id IN (SELECT id FROM feed_indexes WHERE ${mine})`,
    sql`UPDATE feed_indexes SET floor = NULL, floor_rank = NULL, complete = 0, near = NULL, near_rank = NULL, cap = ${HIDING_CAP}, updated_at = ${now} WHERE ${mine}`,
  ]);
  return indexes.map((i) => ({ type: "viewer", ruleKey: i.ruleKey.slice(i.ruleKey.indexOf(":", 2) + 1), viewerId: i.viewerId!, floor: null, ...changeOfKind(viewerKindOf(i.ruleKey)) }));
}
