import { batchAll, sql, type AppContext } from "../shared/index.server";

import type { UserHit } from "./schema";
export type { UserHit };

/** User names matching q case-insensitively: prefix matches first, then substring; at most 10. */
export async function searchUsers(app: AppContext, q: string): Promise<UserHit[]> {
  // by code points, so a cut never leaves half a surrogate pair
  const term = Array.from(q.trim().toLowerCase()).slice(0, 30).join("");
  if (!term) return [];
  // instr, not LIKE: D1 refuses LIKE patterns over 50 bytes (a 500 for a long or non-ASCII q),
  // and instr needs no escaping of % and _
  const [rows] = await batchAll<[{ id: string; user_name: string }[]]>(app.db, [
    sql`SELECT id, user_name FROM users
        WHERE instr(lower(user_name), ${term}) > 0
        ORDER BY CASE WHEN instr(lower(user_name), ${term}) = 1 THEN 0 ELSE 1 END, lower(user_name), id
        LIMIT 10`,
  ]);
  return rows.map((r) => ({ _id: r.id, userName: r.user_name }));
}
