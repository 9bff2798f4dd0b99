import { batch, select, sql, tables, type AppContext, trigramSearchable } from "../shared/index.server";

import type { UserHit } from "./schema";
export type { UserHit };

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
  // by code points, so a cut never leaves half a surrogate pair
  const term = Array.from(q.trim().toLowerCase()).slice(0, 30).join("");
  if (!NAME_TERM.test(term)) return [];
  const prefix = select(
    { id: users.id, userName: users.userName },
    sql`FROM users
      WHERE ${users.userName} >= ${term} COLLATE NOCASE AND ${users.userName} < ${term + AFTER_NAME_CHARS} COLLATE NOCASE
      ORDER BY ${users.userName} COLLATE NOCASE LIMIT ${LIMIT}`,
  );
  // fewer than 10 prefix hits means at most 9 of these are prefix hits too: 2 × LIMIT leaves
  // room for 10 others. The trigram table is outside the Drizzle schema (migrations/0015), so
  // its columns are typed here.
  const inside = select(
    { id: sql<string>`uid`, userName: sql<string>`name` },
    sql`FROM user_name_search WHERE user_name_search MATCH ${`name:"${term}"`} LIMIT ${2 * LIMIT}`,
  );
  const [starts = [], contains = []] = await batch(app.db, trigramSearchable(term) ? [prefix, inside] : [prefix]);
  const seen = new Set(starts.map((r) => r.id));
  const others = contains
    .filter((r) => !seen.has(r.id))
    .sort((a, b) => a.userName.toLowerCase().localeCompare(b.userName.toLowerCase()) || (a.id < b.id ? -1 : 1));
  return [...starts, ...others].slice(0, LIMIT).map((r) => ({ _id: r.id, userName: r.userName }));
}
