// The Following timeline (docs/decisions/013-following-timeline.md): fan-out on write. Each
// follower owns rows (owner, echo, author) in timeline_entries; a page is one index walk of the
// owner's rows, whatever the number of people followed or how long ago they posted.
import type { Placeholder } from "drizzle-orm";
import { batch, createDb, sql, tables, toD1, type AppContext, type Db, type SQL, select } from "../shared/index.server";
import { echoColumns } from "./echo.server";
import { knownTotal, newestPages, shape, type PageRequest } from "./lists.server";
import type { EchoPage } from "./schema";

/**
 * A timeline keeps about its newest TIMELINE_CAP entries (25 pages); older ones are trimmed. Sized
 * by storage: a row is ~135 bytes on disk, so a full timeline is ~67 KB (decision 013).
 */
export const TIMELINE_CAP = 500;
/** A new follow brings the followee's newest FOLLOW_BACKFILL echos: a first page at once. */
export const FOLLOW_BACKFILL = 20;
/** Timelines the cron trims per run (each trim reads at most about TIMELINE_CAP index entries). */
export const TRIM_OWNERS_PER_RUN = 200;

/** Post: one row per follower of the author, in the post's batch, only if the echo was written. */
export function fanOutPost(echoId: string, authorId: string, posted: SQL): SQL {
  return sql`INSERT INTO timeline_entries (owner_id, echo_id)
    SELECT follower_id, ${echoId} FROM user_follows WHERE followee_id = ${authorId} AND ${posted}`;
}

/** Drop an owner's entries beyond the cap: one seek to the cap-th newest, then a range delete. */
function trimTimeline(ownerId: string): SQL {
  return sql`DELETE FROM timeline_entries WHERE owner_id = ${ownerId} AND echo_id <= (
    SELECT echo_id FROM timeline_entries WHERE owner_id = ${ownerId} ORDER BY echo_id DESC LIMIT 1 OFFSET ${TIMELINE_CAP})`;
}

/**
 * Follow (after the follow row is written, same batch): the followee's newest echos join the
 * follower's timeline, which is then trimmed back to the cap. Only while the follow exists, so a
 * follow refused by its own guard brings nothing.
 */
export function backfillFollow(ownerId: string, followeeId: string): SQL[] {
  return [
    sql`INSERT OR IGNORE INTO timeline_entries (owner_id, echo_id)
      SELECT ${ownerId}, id FROM echos
      WHERE author_id = ${followeeId}
        AND EXISTS (SELECT 1 FROM user_follows WHERE follower_id = ${ownerId} AND followee_id = ${followeeId})
      ORDER BY id DESC LIMIT ${FOLLOW_BACKFILL}`,
    trimTimeline(ownerId),
  ];
}

/**
 * Unfollow (same batch): the followee's echos leave the follower's timeline. Found through the
 * timeline itself (about TIMELINE_CAP rows at most, each with its echo's author): a write may read
 * that much, while an (owner, author) index would add an entry to every fan-out row written.
 * CROSS JOIN keeps the timeline the outer loop: left to itself, SQLite walked all the followee's
 * echos instead (7,563 rows for an unfollow in the bench store; unbounded for a prolific author).
 */
export function removeFollowee(ownerId: string, followeeId: string): SQL {
  return sql`DELETE FROM timeline_entries WHERE owner_id = ${ownerId} AND echo_id IN (
    SELECT t.echo_id FROM timeline_entries t CROSS JOIN echos e ON e.id = t.echo_id
    WHERE t.owner_id = ${ownerId} AND e.author_id = ${followeeId})`;
}

/**
 * Live updates on Following (decision 016): which of these readers have the echo in their
 * timeline, i.e. would see it on their Following page. The readers' list is the outer loop
 * (CROSS JOIN), so each reader is one probe of the (owner, echo) primary key: the rows read follow
 * the readers asked about, not the author's followers (whose rows for the echo may be 50,000).
 */
export async function timelineOwners(db: Db, echoId: string, ownerIds: readonly string[]): Promise<Set<string>> {
  if (ownerIds.length === 0) return new Set();
  const [rows] = await batch(db, [
    select(
      { id: tables.timelineEntries.ownerId },
      sql`FROM json_each(${JSON.stringify(ownerIds)}) r
      CROSS JOIN timeline_entries ON ${tables.timelineEntries.ownerId} = r.value AND ${tables.timelineEntries.echoId} = ${echoId}`,
    ),
  ]);
  return new Set(rows.map((r) => r.id));
}

/** A page of a timeline whose owner `owner` names (it may be NULL: then no row is read). */
const timelinePages = (owner: (viewerId: Placeholder) => SQL) =>
  newestPages(["viewerId"], "t.echo_id", (v, where) =>
    select(
      echoColumns(v.viewerId),
      sql`FROM timeline_entries t JOIN echos e ON e.id = t.echo_id JOIN users u ON u.id = e.author_id
        WHERE t.owner_id = ${owner(v.viewerId)} AND ${where}
        ORDER BY t.echo_id DESC LIMIT ${v.limit} OFFSET ${v.offset}`,
    ),
  );

/** A page of the viewer's timeline. */
const followingPage = timelinePages((viewerId) => sql`${viewerId}`);

/** The same page, whose owner is NULL (no row read) when the viewer follows nobody. */
const followingPageIfAny = timelinePages(
  (viewerId) =>
    sql`CASE WHEN (SELECT ${tables.users.followingCount} FROM users WHERE ${tables.users.id} = ${viewerId}) > 0 THEN ${viewerId} END`,
);

/**
 * GET /echo/following: the viewer's timeline newest first, keyset by echo id (a cursor) or an
 * OFFSET (page without cursor). One statement: the total is what is known so far (no COUNT over
 * the timeline), as for windowed tag lists and feeds.
 */
export async function listFollowing(app: AppContext, viewerId: string, req: PageRequest): Promise<EchoPage> {
  const [rows] = await batch(app.db, [followingPage({ viewerId }, req)]);
  return shape(rows, req, knownTotal(rows, req), "newest");
}

/**
 * The Following page if the viewer follows anyone, else null. Not following, the page's seek key
 * is NULL and no timeline row is read: home sends this in the batch that finds out whether
 * Following is its default, so its usual page costs one round trip, not two. `followsAnyone` is
 * the answer of that same batch (the session check reads the viewer's following count), so an
 * empty page is told apart from no follows at all.
 */
export async function followingIfAny(app: AppContext, viewerId: string, req: PageRequest, followsAnyone: Promise<boolean>): Promise<EchoPage | null> {
  const [rows] = await batch(app.db, [followingPageIfAny({ viewerId }, req)]);
  return (await followsAnyone) ? shape(rows, req, knownTotal(rows, req), "newest") : null;
}

/**
 * The cron's share of trimming: the next TRIM_OWNERS_PER_RUN users (by rowid, from where the last
 * run stopped; the mark wraps around) get their timelines cut back to the cap. Posts only append,
 * so between two visits a timeline can exceed the cap by what its followees posted meanwhile;
 * reads never depend on the length (docs/decisions/013-following-timeline.md).
 */
export async function trimTimelines(env: Env): Promise<{ owners: number; trimmed: number }> {
  // a db of its own, outside any request: each batch below goes straight to D1
  const db = createDb(env.DB);
  const { rankState, users } = tables;
  const [state] = await batch(db, [
    select({ mark: sql<number>`COALESCE((SELECT ${rankState.value} FROM rank_state WHERE ${rankState.key} = 'timeline_trim_mark'), 0)` }, sql``),
  ]);
  const mark = state[0]?.mark ?? 0;
  const [owners] = await batch(db, [
    select({ r: sql<number>`rowid`, id: users.id }, sql`FROM users WHERE rowid > ${mark} ORDER BY rowid LIMIT ${TRIM_OWNERS_PER_RUN}`),
  ]);
  const next = owners.length < TRIM_OWNERS_PER_RUN ? 0 : owners[owners.length - 1]!.r;
  // the trims' changed-row counts are wanted, which batch() does not return: D1's own batch
  const results = await db.$client.batch([
    ...owners.map((o) => trimTimeline(o.id)),
    sql`INSERT INTO rank_state (key, value) VALUES ('timeline_trim_mark', ${next}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ].map((s) => toD1(db, s)));
  const trimmed = results.slice(0, owners.length).reduce((sum, r) => sum + (r.meta.changes ?? 0), 0);
  return { owners: owners.length, trimmed };
}
