import { backfillFollow, removeFollowee } from "../echo/index.server";
import { badRequest, encodeCursor, forbidden, isId, LEGACY_USER_NAME_PATTERN, notFound, pagination } from "../shared/index";
import { and, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { batch, batchUnderLimit, blockedBetween, listCursor, select, sql, tables, type AppContext, type RowOf } from "../shared/index.server";
import type { Profile, UserHit } from "./schema";

const { users, userFollows } = tables;
const u = alias(users, "u");
const f = alias(userFollows, "f");

/** A profile's columns over `users u`, with whether the viewer follows the user. */
const profileColumns = (viewerId: string) => ({
  id: u.id,
  userName: u.userName,
  bio: u.bio,
  email: u.email,
  createdAt: u.createdAt,
  echosCount: u.echosCount,
  scrollsCount: u.scrollsCount,
  followersCount: u.followersCount,
  followingCount: u.followingCount,
  publicScrolls: u.publicScrollsCount,
  isFollowing: sql<number>`EXISTS (SELECT 1 FROM user_follows f WHERE ${f.followerId} = ${viewerId} AND ${f.followeeId} = ${u.id})`,
});

type ProfileRow = RowOf<ReturnType<typeof profileColumns>>;

// a deleted account (decision 032) is gone at once, while the stream removes its rows
const profileQuery = (viewerId: string, userId: string) =>
  select(profileColumns(viewerId), sql`FROM users u WHERE ${u.id} = ${userId} AND ${u.deletedAt} IS NULL`);

function toProfile(row: ProfileRow, viewerId: string): Profile {
  const isMe = row.id === viewerId;
  return {
    _id: row.id,
    userName: row.userName,
    bio: row.bio,
    ...(isMe ? { email: row.email } : {}),
    createdAt: new Date(row.createdAt).toISOString(),
    echosCount: row.echosCount,
    scrollsCount: isMe ? row.scrollsCount : row.publicScrolls,
    followersCount: row.followersCount,
    followingCount: row.followingCount,
    isFollowing: row.isFollowing === 1,
    isMe,
  };
}

/** A profile with exact counts; the email only on one's own. Others see public scrolls only. */
export async function getProfile(app: AppContext, viewerId: string, userId: string): Promise<Profile> {
  if (!isId(userId)) throw notFound("User not found");
  const [rows] = await batch(app.db, [profileQuery(viewerId, userId)]);
  if (!rows[0]) throw notFound("User not found");
  return toProfile(rows[0], viewerId);
}

/**
 * The id of the user an @mention names (user names are unique without regard to case), or null.
 * One indexed read (users_user_name_nocase); names that cannot be user names are not looked up.
 * Every name the rule allows is found, and so is an account's made under the old rule (only the
 * characters; modules/shared/user-names.ts, docs/security.md "User names").
 */
export async function findUserIdByName(app: AppContext, userName: string): Promise<string | null> {
  if (!LEGACY_USER_NAME_PATTERN.test(userName)) return null;
  const [rows] = await batch(app.db, [select({ id: users.id }, sql`FROM users WHERE ${users.userName} = ${userName} COLLATE NOCASE`)]);
  return rows[0]?.id ?? null;
}

export async function updateProfile(app: AppContext, viewerId: string, input: { bio?: string | null; email?: string | null }) {
  const changes: Partial<Pick<typeof users.$inferInsert, "bio" | "email">> = {};
  if (input.bio !== undefined) changes.bio = input.bio ?? "";
  if (input.email !== undefined) changes.email = input.email ? input.email : null;
  if (Object.keys(changes).length === 0) return getProfile(app, viewerId, viewerId);
  // the edit (under the account's limit) and the profile it returns in one batch
  const [, rows] = await batchUnderLimit(app.db, "profileEdit", viewerId, (within) => [
    app.db.update(users).set(changes).where(and(eq(users.id, viewerId), within)),
    profileQuery(viewerId, viewerId),
  ]);
  return toProfile(rows[0]!, viewerId);
}

export async function setUserFollow(app: AppContext, viewerId: string, userId: string, follow: boolean): Promise<Profile> {
  if (!isId(userId)) throw notFound("User not found");
  if (userId === viewerId) throw badRequest("You cannot follow yourself");
  // one batch, under the account's follow limit (a refused call writes nothing): the follow, its
  // Following-timeline rows (decision 013: a bounded backfill, or a bounded removal before the
  // follow row goes) and the profile it returns
  // no follow between two users either of whom blocks the other (issue 32): refused, 403
  const blocked = blockedBetween(viewerId, userId);
  const [, , rows, block] = await batchUnderLimit(app.db, "follow", viewerId, (within) =>
    follow
      ? ([
          sql`INSERT INTO user_follows (follower_id, followee_id, created_at)
            SELECT ${viewerId}, ${userId}, ${Date.now()} WHERE EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND deleted_at IS NULL) AND ${within} AND NOT ${blocked}
            ON CONFLICT DO NOTHING`,
          backfillFollow(viewerId, userId, within),
          profileQuery(viewerId, userId),
          select({ blocked: sql<number>`${blocked}` }, sql``),
        ] as const)
      : ([
          removeFollowee(viewerId, userId, within),
          app.db.delete(userFollows).where(and(eq(userFollows.followerId, viewerId), eq(userFollows.followeeId, userId), within)),
          profileQuery(viewerId, userId),
          select({ blocked: sql<number>`0` }, sql``),
        ] as const),
  );
  if (!rows[0]) throw notFound("User not found");
  if (follow && block[0]?.blocked === 1) throw forbidden("You cannot follow this user");
  return toProfile(rows[0], viewerId);
}

/** A listed user over `users u`. */
const hitColumns = { id: u.id, userName: u.userName };

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
  const listed = which === "followers" ? f.followerId : f.followeeId;
  const seek = after ? sql`AND ${listed} < ${after.id}` : sql``;
  const [counts, rows] = await batch(app.db, [
    select({ n: which === "followers" ? users.followersCount : users.followingCount }, sql`FROM users WHERE ${users.id} = ${userId}`),
    which === "followers"
      ? select(hitColumns, sql`FROM user_follows f JOIN users u ON ${u.id} = ${f.followerId}
            WHERE ${f.followeeId} = ${userId} ${seek} ORDER BY ${f.followerId} DESC LIMIT ${req.limit + 1} OFFSET ${offset}`)
      : select(hitColumns, sql`FROM user_follows f JOIN users u ON ${u.id} = ${f.followeeId}
            WHERE ${f.followerId} = ${userId} ${seek} ORDER BY ${f.followeeId} DESC LIMIT ${req.limit + 1} OFFSET ${offset}`),
  ]);
  if (!counts[0]) throw notFound("User not found");
  const list: UserHit[] = rows.slice(0, req.limit).map((r) => ({ _id: r.id, userName: r.userName }));
  const hasMore = rows.length > req.limit;
  const nextCursor = hasMore ? encodeCursor({ id: list[list.length - 1]!._id }) : null;
  return { [which]: list, pagination: { ...pagination(req.page, req.limit, counts[0].n, hasMore), nextCursor } };
}
