// Viewer indexes made on like (issue 27, decision 033, "Made on like"): a hide-liked reader's
// viewer index exists before the page that would need it. A page of a hide-liked feed reads a run
// of HIDE_LIKED_SCAN entries of the rule's shared index (two rows a liked one); a run holding fewer
// than a screen of entries the reader did not like gives a short page. Only the reader's own likes
// make a run that dense, so the consumer looks where a like lands: for a like message carrying
// its liker, the shared indexes of hide-liked feeds that hold the echo (entries by echo id), and
// the runs around it — RUN - 1 entries before and after it, a likes probe each. Where a run
// holding the echo is too dense, it sends the make message a short page would have sent.
// Bounded a message: for each liker of a batch, EAGER_CHECKS runs read at most (each 2 × (RUN - 1)
// entries), EAGER_LIKERS likers a round trip; where more shared indexes hold the echos, a `dense`
// message goes on after the last pair checked, EAGER_MESSAGES messages a like at most (64 runs:
// a popular echo stands in many most-liked indexes); nothing at all for a liker with fewer than
// DENSE_LIKES likes, or who already holds their kind's bound (a make on like never evicts:
// `eager`, viewerStep). The kind made is the one the liker's page reads: `b:` (liked and hidden
// left out, counted against HIDING_INDEXES_MAX) for a reader whom anything hides, else `v:`
// (VIEWER_INDEXES_MAX) — decision 033, "Hiders of hide-liked feeds".
import { idFloor, isId } from "../shared/index";
import { batch, select, sql, viewerHidesText, type Change, type Db, type SQL } from "../shared/index.server";
import { HIDE_LIKED_PAGE_MAX, HIDE_LIKED_SCAN } from "./feed-index-pages.server";
import { afterPosition, descending, orderSql, windowMs, type Position } from "./feed-index.server";
import { changeOfKind, hideLikedKindSql } from "./feed-viewer-index.server";
import { lit } from "./feed-streams.server";
import { ruleOfKey } from "./rule.server";
import type { FeedRule } from "./schema";

/** The run a page reads (a reader who reposts: the shortest) and the unliked entries a screen needs in it. */
export const DENSE_RUN = HIDE_LIKED_SCAN;
const RUN = DENSE_RUN;
const SCREEN = HIDE_LIKED_PAGE_MAX;
/** Likes a reader holds at least before any run can be too dense for them. */
export const DENSE_LIKES = RUN - SCREEN + 1;
/** Likers looked up a round trip, and runs read a liker (one around each liked echo an index holds). */
const EAGER_LIKERS = 8;
const EAGER_CHECKS = 8;
const EAGER_MESSAGES = 8;
/** Runs of the cron's walk checked a round trip (and named a message: feed-viewer-walk.server.ts). */
export const RUNS_A_TRIP = 32;

/** Where a liker's check goes on: after the (index, echo) pair of place `k` among its index's echos, in index `index`. */
type After = { k: number; index: number };
/** The liker's kind of index (`b` for a hider, else `v`: the kind their page reads), whether they have
 * it of the shared index `fi`'s rule, and whether they hold their kind's bound. */
const places = (viewerId: string) => hideLikedKindSql(lit(viewerId), "fi.rule_key");
/** Shared indexes of hide-liked feeds holding an echo the liker likes now, of which they hold no
 * viewer index of the kind their page reads: at most EAGER_CHECKS (index, echo) pairs after `after`, each index's first echo
 * before any's second. */
const likedEntries = (viewerId: string, echoIds: string[], after: After) =>
  select(
    { indexId: sql<number>`p.index_id`, ruleKey: sql<string>`p.rule_key`, echoId: sql<string>`p.echo_id`, rank: sql<number>`p.rank`, k: sql<number>`p.k` },
    sql`FROM (SELECT fi.id AS index_id, fi.rule_key, ie.echo_id, ie.rank, row_number() OVER (PARTITION BY fi.id ORDER BY ie.echo_id DESC) AS k
        FROM feed_index_entries ie INDEXED BY feed_index_entries_echo JOIN feed_indexes fi ON fi.id = ie.index_id
        WHERE ie.echo_id IN (SELECT value FROM json_each(${JSON.stringify(echoIds)}))
          AND (SELECT count(*) FROM (SELECT 1 FROM likes WHERE user_id = ${viewerId} LIMIT ${DENSE_LIKES})) = ${DENSE_LIKES}
          AND NOT ${places(viewerId).full}
          AND fi.viewer_id IS NULL AND fi.state = 'ready'
          AND EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = ie.echo_id AND l.user_id = ${viewerId})
          AND EXISTS (SELECT 1 FROM scrolls s WHERE s.rule_key = fi.rule_key AND s.exclude_liked_echos = 1)
          AND NOT ${places(viewerId).has}) p
      WHERE (p.k, p.index_id) > (${after.k}, ${after.index}) ORDER BY p.k, p.index_id LIMIT ${EAGER_CHECKS}`,
  );

/** Of a windowed rule, its index's entries still in its window (a page's run skips the rest). */
export function inWindow(rule: FeedRule, now: number): SQL {
  const w = windowMs(rule);
  return w === null ? sql`` : sql`AND feed_index_entries.echo_id >= ${idFloor(now - w)}`;
}

/** The RUN - 1 entries on one side of `at` (nearest first), each with whether the viewer liked its
 * echo — of a windowed rule, only those still in its window, as a page's run skips the rest. */
function beside(rule: FeedRule, indexId: number, at: Position, viewerId: string, side: "before" | "after", now: number) {
  const fresh = inWindow(rule, now);
  const reversed: FeedRule = { ...rule, sortBy: descending(rule) ? "oldestFirst" : "newestFirst" };
  const where =
    side === "after" ? afterPosition(rule, at) : descending(rule) ? sql`(feed_index_entries.rank, feed_index_entries.echo_id) > (${at.rank}, ${at.id})` : sql`(feed_index_entries.rank, feed_index_entries.echo_id) < (0, ${at.id})`;
  return select(
    { liked: sql<number>`EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = feed_index_entries.echo_id AND l.user_id = ${viewerId})` },
    sql`FROM feed_index_entries WHERE index_id = ${indexId} AND ${where} ${fresh} ORDER BY ${orderSql(side === "after" ? rule : reversed)} LIMIT ${RUN - 1}`,
  );
}

/**
 * Whether a run of RUN entries holding the liked echo (between `before` and `after`, the liked
 * flags of its neighbours, nearest first) holds fewer than a screen the reader did not like. A run
 * that would reach past the last entry read is the index's end (or its frontier): a page there
 * shows what is left, or goes on past the frontier.
 */
export function tooDense(before: boolean[], after: boolean[], run = RUN, screen = SCREEN): boolean {
  const flags = [...[...before].reverse(), true, ...after];
  const at = before.length;
  for (let start = Math.max(0, at - run + 1); start <= at && start + run <= flags.length; start++) {
    let unliked = 0;
    for (let i = start; i < start + run; i++) if (!flags[i]) unliked++;
    if (unliked < screen) return true;
  }
  return false;
}

/** One liker's check: their liked echos, from where (a `dense` message's `after`), messages left. */
export type DenseCheck = { userId: string; echoIds: string[]; after: After; left: number };

/** The runs a batch's `runs` messages (the cron's walk) name: checked as a like's are. */
export const walkedRuns = (changes: Change[]): DenseAt[] =>
  changes.flatMap((c) => (c.type === "runs" ? c.at.map((at) => ({ ...at, indexId: c.indexId, ruleKey: c.ruleKey })) : []));

/** The checks of a batch: its likes with their likers (a first check each), and its `dense` messages. */
export function denseChecks(changes: Change[]): DenseCheck[] {
  const likes = new Map<string, string[]>();
  for (const c of changes) if (c.type === "likes" && c.userId) likes.set(c.userId, [...(likes.get(c.userId) ?? []), ...c.echoIds]);
  const first = [...likes].map(([userId, echoIds]): DenseCheck => ({ userId, echoIds: [...new Set(echoIds)], after: { k: 0, index: 0 }, left: EAGER_MESSAGES }));
  return [...first, ...changes.flatMap((c) => (c.type === "dense" ? [c] : []))].filter((c) => isId(c.userId));
}

/**
 * After a batch of the change stream: for the likes it carried with their likers, the viewer
 * indexes to make — one make message (`eager`) for each hide-liked rule where a run around a
 * liked echo is too dense for the liker's page — and the checks that go on (`dense`).
 */
export async function denseRuns(db: Db, checks: DenseCheck[], walked: DenseAt[] = [], now = Date.now()): Promise<Change[]> {
  const made: Change[] = [];
  // (a burst of likes by many likers in one batch: each looked at, EAGER_LIKERS a round trip)
  for (let i = 0; i < checks.length; i += EAGER_LIKERS) made.push(...(await denseFor(db, checks.slice(i, i + EAGER_LIKERS), now)));
  // (the walk's runs: RUNS_A_TRIP a round trip, two statements each)
  for (let i = 0; i < walked.length; i += RUNS_A_TRIP) made.push(...(await runsTooDense(db, walked.slice(i, i + RUNS_A_TRIP), now)));
  return made;
}

async function denseFor(db: Db, likers: DenseCheck[], now: number): Promise<Change[]> {
  const found = await batch(db, likers.map((c) => likedEntries(c.userId, c.echoIds, c.after)));
  // where a liker's pairs filled the check, it goes on after the last one (EAGER_MESSAGES at most)
  const next = likers.flatMap((c, i): Change[] => {
    const last = found[i]!.length === EAGER_CHECKS && c.left > 1 ? found[i]![EAGER_CHECKS - 1]! : null;
    return last ? [{ type: "dense", userId: c.userId, echoIds: c.echoIds, after: { k: last.k, index: last.indexId }, left: c.left - 1 }] : [];
  });
  return [...(await runsTooDense(db, likers.flatMap((c, i) => found[i]!.map((entry) => ({ viewerId: c.userId, ...entry }))), now)), ...next];
}

/** A liked echo of a viewer, where a shared index holds it: the run around it is checked. */
export type DenseAt = { viewerId: string; indexId: number; ruleKey: string; echoId: string; rank: number };

/**
 * The check itself (on like, and the cron's walk over existing likes: feed-viewer-walk.server.ts):
 * the runs around each liked echo read (2 × (RUN - 1) entries and a likes probe each, one round
 * trip for them all), and a make message (`eager`: never evicting) for each viewer and rule where
 * one is too dense.
 */
export async function runsTooDense(db: Db, checks: DenseAt[], now: number): Promise<Change[]> {
  if (checks.length === 0) return [];
  const rules = checks.map((c) => ruleOfKey(c.ruleKey));
  // (with them, which viewers hide anyone or any word: a hider's page reads their `b:` kind, so
  // that is made; moderation does not count, as in hideLikedKindSql)
  const viewers = [...new Set(checks.map((c) => c.viewerId))].filter(isId);
  const [hiders, ...read] = await batch(db, [
    select({ id: sql<string>`value` }, sql`FROM json_each(${JSON.stringify(viewers)}) WHERE ${sql.raw(viewerHidesText("value"))}`),
    ...checks.flatMap((c, i) => {
      const at = { rank: c.rank, id: c.echoId };
      return [beside(rules[i]!, c.indexId, at, c.viewerId, "before", now), beside(rules[i]!, c.indexId, at, c.viewerId, "after", now)];
    }),
  ]);
  const hiding = new Set((hiders as { id: string }[]).map((h) => h.id));
  const flags = (rows: { liked: number }[]) => rows.map((r) => r.liked === 1);
  // (one make a viewer and rule, however many of its runs are too dense)
  const dense = new Map(checks.filter((_, i) => tooDense(flags(read[2 * i]!), flags(read[2 * i + 1]!))).map((c) => [`${c.viewerId}\n${c.ruleKey}`, c] as const));
  return [...dense.values()].map((c): Change => ({ type: "viewer", ruleKey: c.ruleKey, viewerId: c.viewerId, floor: null, eager: true, ...changeOfKind(hiding.has(c.viewerId) ? "b" : "v") }));
}
