import { backfillFollow, removeFollowee } from "../echo/index.server";
import { badRequest, encodeCursor, isId, notFound, pagination } from "../shared/index";
import { batchAll, batchWithinLimit, listCursor, sql, type AppContext } from "../shared/index.server";
import type { Profile, UserHit } from "./schema";

type ProfileRow = {
  id: string;
  user_name: string;
  bio: string;
  email: string | null;
  created_at: number;
  echos_count: number;
  scrolls_count: number;
  public_scrolls: number;
  followers_count: number;
  following_count: number;
  is_following: number;
};

const profileQuery = (viewerId: string, userId: string) => sql`SELECT u.id, u.user_name, u.bio, u.email, u.created_at,
    u.echos_count, u.scrolls_count, u.followers_count, u.following_count, u.public_scrolls_count AS public_scrolls,
    EXISTS (SELECT 1 FROM user_follows f WHERE f.follower_id = ${viewerId} AND f.followee_id = u.id) AS is_following
    FROM users u WHERE u.id = ${userId}`;

function toProfile(row: ProfileRow, viewerId: string): Profile {
  const isMe = row.id === viewerId;
  return {
    _id: row.id,
    userName: row.user_name,
    bio: row.bio,
    ...(isMe ? { email: row.email } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    echosCount: row.echos_count,
    scrollsCount: isMe ? row.scrolls_count : row.public_scrolls,
    followersCount: row.followers_count,
    followingCount: row.following_count,
    isFollowing: row.is_following === 1,
    isMe,
  };
}

/** A profile with exact counts; the email only on one's own. Others see public scrolls only. */
export async function getProfile(app: AppContext, viewerId: string, userId: string): Promise<Profile> {
  if (!isId(userId)) throw notFound("User not found");
  const [rows] = await batchAll<[ProfileRow[]]>(app.db, [profileQuery(viewerId, userId)]);
  if (!rows[0]) throw notFound("User not found");
  return toProfile(rows[0], viewerId);
}

/**
 * The id of the user an @mention names (user names are unique without regard to case), or null.
 * One indexed read (users_user_name_nocase); names that cannot be user names are not looked up.
 */
export async function findUserIdByName(app: AppContext, userName: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_.-]{1,30}$/.test(userName)) return null;
  const [rows] = await batchAll<[{ id: string }[]]>(app.db, [sql`SELECT id FROM users WHERE user_name = ${userName} COLLATE NOCASE`]);
  return rows[0]?.id ?? null;
}

export async function updateProfile(app: AppContext, viewerId: string, input: { bio?: string | null; email?: string | null }) {
  const sets = [];
  if (input.bio !== undefined) sets.push(sql`bio = ${input.bio ?? ""}`);
  if (input.email !== undefined) sets.push(sql`email = ${input.email ? input.email : null}`);
  if (sets.length === 0) return getProfile(app, viewerId, viewerId);
  const assignments = sets.reduce((acc, s) => sql`${acc}, ${s}`);
  // the edit (under the account's limit) and the profile it returns in one batch
  const [, rows] = await batchWithinLimit<[unknown[], ProfileRow[]]>(app.db, "profileEdit", viewerId, (within) => [
    sql`UPDATE users SET ${assignments} WHERE id = ${viewerId} AND ${within}`,
    profileQuery(viewerId, viewerId),
  ]);
  return toProfile(rows[0]!, viewerId);
}

export async function setUserFollow(app: AppContext, viewerId: string, userId: string, follow: boolean): Promise<Profile> {
  if (!isId(userId)) throw notFound("User not found");
  if (userId === viewerId) throw badRequest("You cannot follow yourself");
  const write = follow
    ? sql`INSERT INTO user_follows (follower_id, followee_id, created_at)
          SELECT ${viewerId}, ${userId}, ${Date.now()} WHERE EXISTS (SELECT 1 FROM users WHERE id = ${userId})
          ON CONFLICT DO NOTHING`
    : sql`DELETE FROM user_follows WHERE follower_id = ${viewerId} AND followee_id = ${userId}`;
  // the follow's Following-timeline rows (decision 013) come or go with it
  const timeline = follow ? backfillFollow(viewerId, userId) : [removeFollowee(viewerId, userId)];
  // the write, the timeline and the profile it returns in one batch
  const results = await batchAll<unknown[][]>(app.db, [write, ...timeline, profileQuery(viewerId, userId)]);
  const rows = results[results.length - 1] as ProfileRow[];
  if (!rows[0]) throw notFound("User not found");
  return toProfile(rows[0], viewerId);
}

/**
 * Followers or following of a user, by user id (newest account first); total from the user's
 * counter. Pages go on by cursor (the last id), or by page number.
 */
export async function followList(
  app: AppContext,
  userId: string,
  which: "followers" | "following",
  req: { page: number; limit: number; cursor?: string },
) {
  if (!isId(userId)) throw notFound("User not found");
  const after = listCursor(req);
  const offset = after ? 0 : (req.page - 1) * req.limit;
  const col = which === "followers" ? "f.follower_id" : "f.followee_id";
  const seek = after ? sql`AND ${sql.raw(col)} < ${after.id}` : sql.raw("");
  const [users, rows] = await batchAll<[{ n: number }[], { id: string; user_name: string }[]]>(app.db, [
    which === "followers"
      ? sql`SELECT followers_count AS n FROM users WHERE id = ${userId}`
      : sql`SELECT following_count AS n FROM users WHERE id = ${userId}`,
    which === "followers"
      ? sql`SELECT u.id, u.user_name FROM user_follows f JOIN users u ON u.id = f.follower_id
            WHERE f.followee_id = ${userId} ${seek} ORDER BY f.follower_id DESC LIMIT ${req.limit + 1} OFFSET ${offset}`
      : sql`SELECT u.id, u.user_name FROM user_follows f JOIN users u ON u.id = f.followee_id
            WHERE f.follower_id = ${userId} ${seek} ORDER BY f.followee_id DESC LIMIT ${req.limit + 1} OFFSET ${offset}`,
  ]);
  if (!users[0]) throw notFound("User not found");
  const list: UserHit[] = rows.slice(0, req.limit).map((r) => ({ _id: r.id, userName: r.user_name }));
  const hasMore = rows.length > req.limit;
  const nextCursor = hasMore ? encodeCursor({ id: list[list.length - 1]!._id }) : null;
  return { [which]: list, pagination: { ...pagination(req.page, req.limit, users[0].n, hasMore), nextCursor } };
}
