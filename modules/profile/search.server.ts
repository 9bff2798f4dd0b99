import { batch, select, sql, tables, type AppContext, trigramSearchable } from "../shared/index.server";

import type { PersonHit, UserHit } from "./schema";
export type { PersonHit, UserHit };

const { users } = tables;

const LIMIT = 10;
/** What a user name may contain (modules/auth/schema.ts), lower-cased: anything else matches no one. */
const NAME_TERM = /^[a-z0-9_.-]+$/;
/** Sorts after every character a name may hold, under NOCASE: the top of a prefix range. */
const AFTER_NAME_CHARS = "~";

/**
 * User names matching q case-insensitively: names that start with it first (alphabetical), then
 * names that contain it elsewhere (alphabetical among the first found); at most 10. Both reads
 * are bounded, one round trip: a range of the NOCASE name index, and the trigram index of
 * migrations/0015 for terms of 3+ characters (shorter terms match by prefix only).
 */
export async function searchUsers(app: AppContext, q: string): Promise<UserHit[]> {
  return (await matchUsers(app, q, null)).map((r) => ({ _id: r.id, userName: r.userName }));
}

/**
 * The same people for the /search page (issue 29): each with their bio and whether the viewer
 * follows them, read by the same one round trip (the name matches joined to their user rows).
 */
export async function searchPeople(app: AppContext, viewerId: string, q: string): Promise<PersonHit[]> {
  return (await matchUsers(app, q, viewerId)).map((r) => ({
    _id: r.id,
    userName: r.userName,
    bio: r.bio,
    isFollowing: r.isFollowing === 1,
    isMe: r.id === viewerId,
  }));
}

async function matchUsers(app: AppContext, q: string, viewerId: string | null) {
  // by code points, so a cut never leaves half a surrogate pair
  const term = Array.from(q.trim().toLowerCase()).slice(0, 30).join("");
  if (!NAME_TERM.test(term)) return [];
  // the page's extra columns, over `users` (the trigram hits join their user row for them)
  const extra = {
    bio: viewerId ? sql<string>`users.bio` : sql<string>`''`,
    isFollowing: viewerId
      ? sql<number>`EXISTS (SELECT 1 FROM user_follows f WHERE f.follower_id = ${viewerId} AND f.followee_id = users.id)`
      : sql<number>`0`,
  };
  const prefix = select(
    { id: users.id, userName: users.userName, ...extra },
    sql`FROM users
      WHERE ${users.userName} >= ${term} COLLATE NOCASE AND ${users.userName} < ${term + AFTER_NAME_CHARS} COLLATE NOCASE
      ORDER BY ${users.userName} COLLATE NOCASE LIMIT ${LIMIT}`,
  );
  // fewer than 10 prefix hits means at most 9 of these are prefix hits too: 2 × LIMIT leaves
  // room for 10 others. The trigram table is outside the Drizzle schema (migrations/0015), so
  // its columns are typed here.
  const inside = select(
    { id: sql<string>`uid`, userName: sql<string>`name`, ...extra },
    viewerId
      ? sql`FROM user_name_search JOIN users ON users.id = user_name_search.uid
          WHERE user_name_search MATCH ${`name:"${term}"`} LIMIT ${2 * LIMIT}`
      : sql`FROM user_name_search WHERE user_name_search MATCH ${`name:"${term}"`} LIMIT ${2 * LIMIT}`,
  );
  const [starts = [], contains = []] = await batch(app.db, trigramSearchable(term) ? [prefix, inside] : [prefix]);
  const seen = new Set(starts.map((r) => r.id));
  const others = contains
    .filter((r) => !seen.has(r.id))
    .sort((a, b) => a.userName.toLowerCase().localeCompare(b.userName.toLowerCase()) || (a.id < b.id ? -1 : 1));
  return [...starts, ...others].slice(0, LIMIT);
}
