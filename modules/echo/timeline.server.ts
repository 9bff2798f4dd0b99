// The Following timeline (docs/decisions/013-following-timeline.md): fan-out on write. Each
// follower owns rows (owner, echo, author) in timeline_entries; a page is one index walk of the
// owner's rows, whatever the number of people followed or how long ago they posted. This file
// writes the rows (fan-out, follow backfill, unfollow removal, the cron's trim); the pages and
// the live readers are timeline-pages.server.ts's.
import { batch, createDb, returning, select, sendChanges, sql, startChain, tables, toD1, WRITE_LIMITS, type AppContext, type Change, type Db, type SQL } from "../shared/index.server";

/**
 * A timeline keeps about its newest TIMELINE_CAP entries (25 pages); older ones are trimmed. Sized
 * by storage: a row is ~135 bytes on disk, so a full timeline is ~67 KB (decision 013).
 */
export const TIMELINE_CAP = 500;
/** A new follow brings the followee's newest FOLLOW_BACKFILL echos: a first page at once. */
export const FOLLOW_BACKFILL = 20;
/** Timelines the cron trims per run (each trim reads at most about TIMELINE_CAP index entries). */
export const TRIM_OWNERS_PER_RUN = 200;

/**
 * A post writes the author's own row and those of its first FANOUT_INLINE followers (by id) in
 * its own batch: about one row read each, so the post stays within the request budget (≤ 200
 * rows; with every follower it read 1,181 for 1,166 followers). The rest go through the change
 * stream (a `fanout` message), FANOUT_SLICE followers a batch. Most authors have fewer followers
 * than that, so their followers see the echo at once, as before (decision 013).
 */
export const FANOUT_INLINE = 100;
/**
 * A reply's share in its batch (decision 024): each of its followers costs two probes (the
 * follow, and whether they follow the parent's author too), so half as many as a post's keeps a
 * reply within 200 rows (measured on the bench store: 223 rows for a reply by its most followed
 * account with 100 inline). The rest go through the change stream as a post's do.
 */
export const REPLY_FANOUT_INLINE = 50;
const inlineFor = (parentId: string | undefined) => (parentId === undefined ? FANOUT_INLINE : REPLY_FANOUT_INLINE);
/** Followers (rows written) per queue step of a fan-out or an echo delete's removal. */
export const FANOUT_SLICE = 1000;

/**
 * Post: the author's own row (your own echos are part of your Following, as on Mastodon:
 * product-decisions, issue 29) and the first FANOUT_INLINE followers' rows (by id), in the
 * post's batch, only if the echo was written; and the author's follower count, which says
 * whether the change stream goes on (fanOutRest). About one row read per row written (RETURNING
 * the owners instead read three). A reply (`parentId`) reaches only the followers who also follow
 * the parent's author, or are that author (Mastodon's rule, decision 024): one more probe of
 * `user_follows` per follower, taken from the first REPLY_FANOUT_INLINE followers (not scanning
 * on for matches: the rest is the stream's).
 */
export function fanOutPost(echoId: string, authorId: string, posted: SQL, now: number, parentId?: string, repost?: true) {
  const inline = inlineFor(parentId);
  const rest: Change = { ...fanOutRest(echoId, authorId, inline + 1, parentId)!, ...(repost ? { repost } : {}) };
  return {
    statements: [
      // the rest's chain (decision 032): if its message is lost, the repair pass replays it
      startChain(fanoutChain(echoId), rest, now, sql`${posted} AND (SELECT ${tables.users.followersCount} FROM users WHERE ${tables.users.id} = ${authorId}) > ${inline}`),
      sql`INSERT INTO timeline_entries (owner_id, echo_id)
        SELECT f.follower_id, ${echoId} FROM
          (SELECT follower_id FROM user_follows WHERE followee_id = ${authorId} AND ${posted} ORDER BY follower_id LIMIT ${inline}) f
        WHERE ${followsParent(authorId, parentId)}`,
      sql`INSERT INTO timeline_entries (owner_id, echo_id) SELECT ${authorId}, ${echoId} WHERE ${posted}`,
    ],
    followers: select({ count: tables.users.followersCount }, sql`FROM users WHERE ${tables.users.id} = ${authorId}`),
  };
}

/** The key of an echo's fan-out chain in `stream_chains`. */
const fanoutChain = (echoId: string) => `fanout:${echoId}`;

/**
 * Repost (decision 027): the same rows as a post's, the repost's id for the echo's and the
 * reposter for the author (the reposter's own Following shows it, as one's own echos; followers
 * who mute the reposter get no row).
 */
export const fanOutRepost = (repostId: string, reposterId: string, written: SQL, now: number) => fanOutPost(repostId, reposterId, written, now, undefined, true);

/**
 * After the post's batch: the message that takes the echo to the followers the batch did not
 * reach, if the author has more than it wrote. The stream's first step starts from the first
 * follower again: the rows the batch wrote are ignored, and a follower who came in between with a
 * smaller id is not skipped (a follow also brings the newest echos itself).
 */
export function fanOutRest(echoId: string, authorId: string, followers: number, parentId?: string): Change | null {
  if (followers <= inlineFor(parentId)) return null;
  return parentId === undefined ? { type: "fanout", echoId, authorId, after: "" } : { type: "fanout", echoId, authorId, after: "", parentId };
}

/**
 * Of the author's followers `f`, those a post reaches: not those who mute the author (issue 32),
 * and for a reply only
 * those who also follow (or are) the parent's author.
 */
function followsParent(authorId: string, parentId: string | undefined): SQL {
  // a primary-key probe per follower that finds nothing for most (reads no row); NOT IN over the
  // muters read one more row per follower (211 rows for a post to 100 inline followers)
  const unmuted = sql`NOT EXISTS (SELECT 1 FROM mutes m WHERE m.muter_id = f.follower_id AND m.muted_id = ${authorId}
    AND (m.expires_at IS NULL OR m.expires_at > unixepoch() * 1000))`;
  if (parentId === undefined) return unmuted;
  const parentAuthor = sql`(SELECT author_id FROM echos WHERE id = ${parentId})`;
  return sql`${unmuted} AND (f.follower_id = ${parentAuthor}
    OR EXISTS (SELECT 1 FROM user_follows g WHERE g.follower_id = f.follower_id AND g.followee_id = ${parentAuthor}))`;
}

/**
 * The change stream's share of the timelines (decision 013), in the queue consumer: each
 * `fanout` writes the next FANOUT_SLICE followers' rows (only while the echo exists: a delete
 * in between stops it) and sends the next step while followers remain; each `unfanout` removes
 * FANOUT_SLICE of a deleted echo's rows and sends the next step while any were left. Idempotent
 * (INSERT OR IGNORE; a repeated delete removes nothing), so a message delivered twice is harmless.
 */
export async function consumeTimelineChanges(app: Pick<AppContext, "env" | "ctx">, db: Db, changes: Change[]): Promise<{ fanouts: number; removed: number }> {
  const fanouts = changes.flatMap((c) => (c.type === "fanout" ? [c] : []));
  const unfanouts = [...new Set(changes.flatMap((c) => (c.type === "unfanout" ? [c.echoId] : [])))];
  if (fanouts.length === 0 && unfanouts.length === 0) return { fanouts: 0, removed: 0 };
  const te = tables.timelineEntries;
  const exists = (echoId: string, repost?: true) =>
    repost ? sql`EXISTS (SELECT 1 FROM reposts WHERE id = ${echoId})` : sql`EXISTS (SELECT 1 FROM echos WHERE id = ${echoId})`;
  const now = Date.now();
  // the slice's last follower, if the slice was full: where the next step starts
  const boundary = (f: Extract<Change, { type: "fanout" }>) =>
    sql`FROM user_follows WHERE followee_id = ${f.authorId} AND follower_id > ${f.after} AND ${exists(f.echoId, f.repost)}
      ORDER BY follower_id LIMIT 1 OFFSET ${FANOUT_SLICE - 1}`;
  const statements = [
    ...fanouts.flatMap((f) => [
      sql`INSERT OR IGNORE INTO timeline_entries (owner_id, echo_id)
        SELECT f.follower_id, ${f.echoId} FROM
          (SELECT follower_id FROM user_follows WHERE followee_id = ${f.authorId} AND follower_id > ${f.after} AND ${exists(f.echoId, f.repost)}
           ORDER BY follower_id LIMIT ${FANOUT_SLICE}) f
        WHERE ${followsParent(f.authorId, f.parentId)}`,
      select({ next: tables.userFollows.followerId }, boundary(f)),
      // the chain (decision 032) moves to the next step, atomic with this one; the last step (no
      // boundary: the followers, or the echo, are done) ends it
      sql`UPDATE stream_chains SET change = json_set(change, '$.after', (SELECT follower_id ${boundary(f)})), updated_at = ${now}
        WHERE key = ${fanoutChain(f.echoId)}`,
      sql`DELETE FROM stream_chains WHERE key = ${fanoutChain(f.echoId)} AND json_type(change, '$.after') = 'null'`,
    ]),
    ...unfanouts.map((echoId) =>
      returning(
        sql`DELETE FROM timeline_entries WHERE echo_id = ${echoId} AND NOT ${exists(echoId)}
          AND owner_id IN (SELECT owner_id FROM timeline_entries WHERE echo_id = ${echoId} LIMIT ${FANOUT_SLICE})`,
        { ownerId: te.ownerId },
      ),
    ),
  ];
  const results = (await batch(db, statements)) as unknown[][];
  const next: Change[] = [];
  let removed = 0;
  fanouts.forEach((f, i) => {
    const last = (results[4 * i + 1] as { next: string }[])[0];
    if (last) next.push({ ...f, after: last.next });
  });
  unfanouts.forEach((echoId, i) => {
    const gone = results[4 * fanouts.length + i]!.length;
    removed += gone;
    if (gone === FANOUT_SLICE) next.push({ type: "unfanout", echoId });
  });
  sendChanges(app, next);
  return { fanouts: fanouts.length, removed };
}

/** Drop an owner's entries beyond the cap: one seek to the cap-th newest, then a range delete. */
function trimTimeline(ownerId: string): SQL {
  return sql`DELETE FROM timeline_entries WHERE owner_id = ${ownerId} AND echo_id <= (
    SELECT echo_id FROM timeline_entries WHERE owner_id = ${ownerId} ORDER BY echo_id DESC LIMIT 1 OFFSET ${TIMELINE_CAP})`;
}

/**
 * Drop an owner's entries whose author — a repost's reposter — the owner no longer follows (what
 * an unfollow left past UNFOLLOW_REMOVE): the cron's, about three rows read per entry of the timeline.
 */
function sweepUnfollowed(ownerId: string): SQL {
  return sql`DELETE FROM timeline_entries WHERE owner_id = ${ownerId} AND echo_id IN (
    SELECT t.echo_id FROM timeline_entries t LEFT JOIN reposts r ON r.id = t.echo_id LEFT JOIN echos e ON e.id = t.echo_id
    WHERE t.owner_id = ${ownerId} AND COALESCE(r.user_id, e.author_id) != ${ownerId}
      AND NOT EXISTS (SELECT 1 FROM user_follows f WHERE f.follower_id = ${ownerId} AND f.followee_id = COALESCE(r.user_id, e.author_id)))`;
}

/**
 * Follow (after the follow row is written, same batch): the followee's newest FOLLOW_BACKFILL
 * entries join the follower's timeline — their echos and their reposts together (decision 027:
 * a repost is an entry of its own, and Following shows what the followee posted and passed on,
 * as Mastodon's home merge and Bluesky's timeline do), the newest of both through
 * `echos_author_id` and `reposts_user` (≈ 2 × FOLLOW_BACKFILL index entries read, however much
 * the followee posted or reposted). Only while the follow exists, so a follow refused by its
 * own guard brings nothing; `within` is the account's follow limit (a refused call writes
 * nothing). No trim here: seeking the cap-th entry reads the whole timeline (≈ 500 rows), so
 * the cron trims the timelines of the accounts that followed lately (trimTimelines).
 */
export function backfillFollow(ownerId: string, followeeId: string, within: SQL = sql`1`): SQL {
  const follows = sql`EXISTS (SELECT 1 FROM user_follows WHERE follower_id = ${ownerId} AND followee_id = ${followeeId})`;
  // the follower's own newest echos too (a no-op once there: posts add their author's row), so
  // a first follow shows one's own echos from before among the followee's (issue 29)
  return sql`INSERT OR IGNORE INTO timeline_entries (owner_id, echo_id)
      SELECT ${ownerId}, id FROM (
        SELECT id FROM (SELECT id FROM echos WHERE author_id = ${followeeId} AND ${within} AND ${follows} ORDER BY id DESC LIMIT ${FOLLOW_BACKFILL})
        UNION ALL
        SELECT id FROM (SELECT id FROM reposts WHERE user_id = ${followeeId} AND ${within} AND ${follows} ORDER BY id DESC LIMIT ${FOLLOW_BACKFILL})
        ORDER BY id DESC LIMIT ${FOLLOW_BACKFILL})
      UNION ALL
      SELECT * FROM (SELECT ${ownerId}, id FROM echos
        WHERE author_id = ${ownerId} AND ${within} AND ${follows}
        ORDER BY id DESC LIMIT ${FOLLOW_BACKFILL})`;
}

/**
 * An unfollow removes at most this many of the followee's rows in its own batch (≈ 3 rows read
 * each): the followee's rows in a timeline are its newest echos (the backfill, then every post
 * since the follow), so the followee's newest UNFOLLOW_REMOVE echos are probed in the owner's
 * primary key. Rows past that (a followee who posted more than that many echos into this
 * timeline while followed) stay until the cron sweeps them; reads never show them (the page
 * keeps only echos of authors the owner follows). Decision 013.
 */
export const UNFOLLOW_REMOVE = 30;

/**
 * Unfollow (same batch, before the follow row goes): the followee's newest echos leave the
 * follower's timeline — those at or after the timeline's oldest entry, newest first, at most
 * UNFOLLOW_REMOVE, each one probe of (owner, echo). Bounded by that, not by how much the
 * followee posted nor by the length of the timeline.
 */
export function removeFollowee(ownerId: string, followeeId: string, within: SQL = sql`1`): SQL {
  // the followee's entries are their echos and their reposts (decision 027): the newest of both
  const oldest = sql`(SELECT echo_id FROM timeline_entries WHERE owner_id = ${ownerId} ORDER BY echo_id LIMIT 1)`;
  return sql`DELETE FROM timeline_entries WHERE owner_id = ${ownerId} AND ${within} AND echo_id IN (
    SELECT id FROM (
      SELECT id FROM (SELECT id FROM echos WHERE author_id = ${followeeId} AND id >= ${oldest} ORDER BY id DESC LIMIT ${UNFOLLOW_REMOVE})
      UNION ALL
      SELECT id FROM (SELECT id FROM reposts WHERE user_id = ${followeeId} AND id >= ${oldest} ORDER BY id DESC LIMIT ${UNFOLLOW_REMOVE}))
    ORDER BY id DESC LIMIT ${UNFOLLOW_REMOVE})`;
}

/** How far back the cron looks for accounts that followed or unfollowed (its own period is 5 minutes). */
export const RECENT_FOLLOWS_MS = WRITE_LIMITS.follow.windowMs + 10 * 60_000;

/**
 * The cron's share of trimming. (1) The accounts that followed or unfollowed lately (their
 * `follow:` counters in rate_limits, which the follow limit writes anyway) get their timelines
 * cut back to the cap (a follow adds FOLLOW_BACKFILL and no longer trims in its batch) and swept
 * of what an unfollow left (sweepUnfollowed). (2) The next TRIM_OWNERS_PER_RUN users (by rowid,
 * from where the last run stopped; the mark wraps around) get theirs cut back to the cap. Posts
 * only append, so between two visits a timeline can exceed the cap by what its followees posted
 * meanwhile; reads never depend on the length (docs/decisions/013-following-timeline.md).
 */
export async function trimTimelines(env: Env, now = Date.now()): Promise<{ owners: number; trimmed: number }> {
  // a db of its own, outside any request: each batch below goes straight to D1
  const db = createDb(env.DB);
  const { rankState, users, rateLimits } = tables;
  const prefix = "follow:";
  const [state, recent] = await batch(db, [
    select({ mark: sql<number>`COALESCE((SELECT ${rankState.value} FROM rank_state WHERE ${rankState.key} = 'timeline_trim_mark'), 0)` }, sql``),
    // a range of the counters' primary key: one row per account and window
    select(
      { id: sql<string>`DISTINCT substr(${rateLimits.key}, ${prefix.length + 1})` },
      sql`FROM rate_limits WHERE ${rateLimits.key} >= ${prefix} AND ${rateLimits.key} < ${"follow;"} AND ${rateLimits.windowStart} >= ${now - RECENT_FOLLOWS_MS}`,
    ),
  ]);
  const mark = state[0]?.mark ?? 0;
  const [owners] = await batch(db, [
    select({ r: sql<number>`rowid`, id: users.id }, sql`FROM users WHERE rowid > ${mark} ORDER BY rowid LIMIT ${TRIM_OWNERS_PER_RUN}`),
  ]);
  const next = owners.length < TRIM_OWNERS_PER_RUN ? 0 : owners[owners.length - 1]!.r;
  const walked = owners.map((o) => o.id).filter((id) => !recent.some((r) => r.id === id));
  const cuts = [...recent.flatMap((r) => [sweepUnfollowed(r.id), trimTimeline(r.id)]), ...walked.map((id) => trimTimeline(id))];
  // the trims' changed-row counts are wanted, which batch() does not return: D1's own batch
  const results = await db.$client.batch([
    ...cuts,
    sql`INSERT INTO rank_state (key, value) VALUES ('timeline_trim_mark', ${next}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ].map((s) => toD1(db, s)));
  const trimmed = results.slice(0, cuts.length).reduce((sum, r) => sum + (r.meta.changes ?? 0), 0);
  return { owners: recent.length + walked.length, trimmed };
}
