// Blocks and mutes (issue 32, docs/decisions/026-safety.md). The rows are the truth; triggers of
// migration 0023 keep each viewer's hidden-author set, which every list reads (shared/hidden).
import { removeFollowee } from "../echo/index.server";
import { badRequest, encodeCursor, isId, notFound } from "../shared/index";
import { refreshRecipient } from "../notification/index.server";
import { batch, batchUnderLimit, listCursor, select, sendChanges, sql, tables, type AppContext, type SQL } from "../shared/index.server";
import { MUTE_DURATION_MS, type MuteDuration, type SafetyPage, type SafetyRelation } from "./schema";

/** Bounds of one account's lists: what the hidden-author set of one row can hold (decision 026). */
export const MAX_BLOCKS = 2_000;
export const MAX_MUTES = 1_000;

const { users } = tables;

const blocking = (viewerId: string, userId: string) =>
  sql`EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${viewerId} AND blocked_id = ${userId})`;

/** The viewer's relation to a user, read in the write's batch (no row when the user does not exist). */
const relationQuery = (viewerId: string, userId: string, now: number) =>
  select(
    {
      id: users.id,
      blocked: sql<number>`${blocking(viewerId, userId)}`,
      mutedUntil: sql<number | null>`(SELECT ifnull(expires_at, 0) FROM mutes WHERE muter_id = ${viewerId} AND muted_id = ${userId}
        AND (expires_at IS NULL OR expires_at > ${now}))`,
    },
    sql`FROM users WHERE ${users.id} = ${userId}`,
  );

type RelationRow = { id: string; blocked: number; mutedUntil: number | null };

function toRelation(row: RelationRow): SafetyRelation {
  return {
    userId: row.id,
    blocked: row.blocked === 1,
    muted: row.mutedUntil !== null,
    mutedUntil: row.mutedUntil ? new Date(row.mutedUntil).toISOString() : null,
  };
}

function checkTarget(viewerId: string, userId: string, what: string) {
  if (!isId(userId)) throw notFound("User not found");
  if (userId === viewerId) throw badRequest(`You cannot ${what} yourself`);
}

/** Whether the viewer blocks or mutes a user (GET, for a profile). */
export async function getRelation(app: AppContext, viewerId: string, userId: string): Promise<SafetyRelation> {
  if (!isId(userId)) throw notFound("User not found");
  const [rows] = await batch(app.db, [relationQuery(viewerId, userId, Date.now())]);
  if (!rows[0]) throw notFound("User not found");
  return toRelation(rows[0]);
}

/**
 * Block (idempotent) or unblock, one atomic batch under the account's block limit. A block
 * removes the follows both ways (with their Following-timeline rows, as an unfollow does) and
 * the notifications either one caused the other; each of those writes runs only when the block
 * row exists, so a refused block (limit, bound) changes nothing.
 */
export async function setBlock(app: AppContext, viewerId: string, userId: string, block: boolean): Promise<SafetyRelation> {
  checkTarget(viewerId, userId, "block");
  const now = Date.now();
  const writes = (within: SQL): SQL[] => {
    if (!block) return [sql`DELETE FROM blocks WHERE blocker_id = ${viewerId} AND blocked_id = ${userId} AND ${within}`];
    const made = sql`${within} AND ${blocking(viewerId, userId)}`;
    return [
      sql`INSERT INTO blocks (blocker_id, blocked_id, created_at)
        SELECT ${viewerId}, ${userId}, ${now} WHERE EXISTS (SELECT 1 FROM users WHERE id = ${userId}) AND ${within}
          AND (SELECT count(*) FROM blocks WHERE blocker_id = ${viewerId}) < ${MAX_BLOCKS}
        ON CONFLICT DO NOTHING`,
      removeFollowee(viewerId, userId, made),
      sql`DELETE FROM user_follows WHERE follower_id = ${viewerId} AND followee_id = ${userId} AND ${made}`,
      removeFollowee(userId, viewerId, made),
      sql`DELETE FROM user_follows WHERE follower_id = ${userId} AND followee_id = ${viewerId} AND ${made}`,
      sql`DELETE FROM notifications WHERE actor_id = ${userId} AND recipient_id = ${viewerId} AND ${made}`,
      sql`DELETE FROM notifications WHERE actor_id = ${viewerId} AND recipient_id = ${userId} AND ${made}`,
    ];
  };
  const results = await batchUnderLimit(app.db, "block", viewerId, (within) => [...writes(within), relationQuery(viewerId, userId, now)]);
  const row = results[results.length - 1]![0] as RelationRow | undefined;
  if (!row) throw notFound("User not found");
  if (block && row.blocked !== 1) throw badRequest(`You can block at most ${MAX_BLOCKS.toLocaleString("en-US")} accounts`);
  // both sides' hiding viewer indexes are made again (decision 033): a block hides either way
  sendChanges(app, [{ type: "hiding", viewerIds: [viewerId, userId] }]);
  return toRelation(row);
}

/** Mute (again: a new duration replaces the old) or unmute, under the account's mute limit. */
export async function setMute(app: AppContext, viewerId: string, userId: string, mute: false | MuteDuration): Promise<SafetyRelation> {
  checkTarget(viewerId, userId, "mute");
  const now = Date.now();
  const expiresAt = mute === false || mute === "forever" ? null : now + MUTE_DURATION_MS[mute];
  const muted = sql`EXISTS (SELECT 1 FROM mutes WHERE muter_id = ${viewerId} AND muted_id = ${userId})`;
  // the viewer's notification groups' shown state, recomputed through the change stream (decision 015)
  const notices = refreshRecipient(viewerId, now);
  const results = await batchUnderLimit(app.db, "mute", viewerId, (within) => [
    mute === false
      ? sql`DELETE FROM mutes WHERE muter_id = ${viewerId} AND muted_id = ${userId} AND ${within}`
      : sql`INSERT INTO mutes (muter_id, muted_id, created_at, expires_at)
          SELECT ${viewerId}, ${userId}, ${now}, ${expiresAt} WHERE EXISTS (SELECT 1 FROM users WHERE id = ${userId}) AND ${within}
            AND (EXISTS (SELECT 1 FROM mutes WHERE muter_id = ${viewerId} AND muted_id = ${userId})
              OR (SELECT count(*) FROM mutes WHERE muter_id = ${viewerId}) < ${MAX_MUTES})
          ON CONFLICT (muter_id, muted_id) DO UPDATE SET expires_at = excluded.expires_at, created_at = excluded.created_at`,
    // the muted's newest echos leave the viewer's Following (later posts skip it: fanOutPost)
    ...(mute === false ? [] : [removeFollowee(viewerId, userId, sql`${within} AND ${muted}`)]),
    notices.start(mute === false ? within : sql`${within} AND ${muted}`),
    relationQuery(viewerId, userId, now),
  ]);
  const row = results[results.length - 1]![0] as RelationRow | undefined;
  if (!row) throw notFound("User not found");
  if (mute !== false && row.mutedUntil === null) throw badRequest(`You can mute at most ${MAX_MUTES.toLocaleString("en-US")} accounts`);
  sendChanges(app, [{ type: "hiding", viewerIds: [viewerId] }, notices.change]);
  return toRelation(row);
}

/**
 * The viewer's blocks or mutes, newest first, by cursor (the last row's time and id): one index
 * range (`blocks_blocker_created`, `mutes_muter_created`). Ended mutes are not listed.
 */
export async function safetyList(
  app: AppContext,
  viewerId: string,
  which: "blocks" | "mutes",
  req: { limit: number; cursor?: string },
): Promise<SafetyPage> {
  const after = listCursor(req);
  if (after && after.a === undefined) throw badRequest("cursor is invalid");
  const now = Date.now();
  const t = which === "blocks" ? { table: "blocks", owner: "blocker_id", other: "blocked_id", until: sql`NULL` } : { table: "mutes", owner: "muter_id", other: "muted_id", until: sql`x.expires_at` };
  const seek = after ? sql`AND (x.created_at, x.${sql.raw(t.other)}) < (${after.a}, ${after.id})` : sql``;
  const live = which === "mutes" ? sql`AND (x.expires_at IS NULL OR x.expires_at > ${now})` : sql``;
  const [rows] = await batch(app.db, [
    select(
      { id: users.id, userName: users.userName, since: sql<number>`x.created_at`, until: sql<number | null>`${t.until}` },
      sql`FROM ${sql.raw(t.table)} x JOIN users ON ${users.id} = x.${sql.raw(t.other)}
        WHERE x.${sql.raw(t.owner)} = ${viewerId} ${seek} ${live}
        ORDER BY x.created_at DESC, x.${sql.raw(t.other)} DESC LIMIT ${req.limit + 1}`,
    ),
  ]);
  const shown = rows.slice(0, req.limit);
  const last = shown[shown.length - 1];
  const hasMore = rows.length > req.limit;
  return {
    users: shown.map((r) => ({
      _id: r.id,
      userName: r.userName,
      since: new Date(r.since).toISOString(),
      until: r.until === null ? null : new Date(r.until).toISOString(),
    })),
    pagination: { limit: req.limit, hasMore, nextCursor: hasMore && last ? encodeCursor({ id: last.id, a: last.since }) : null },
  };
}
