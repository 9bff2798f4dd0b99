import { batchAll, sql, type AppContext } from "../shared/index.server";

import type { UserHit } from "./schema";
export type { UserHit };

/** User names matching q case-insensitively: prefix matches first, then substring; at most 10. */
export async function searchUsers(app: AppContext, q: string): Promise<UserHit[]> {
  const term = q.trim().toLowerCase().slice(0, 30);
  if (!term) return [];
  const like = term.replace(/[\\%_]/g, (c) => `\\${c}`);
  const [rows] = await batchAll<[{ id: string; user_name: string }[]]>(app.db, [
    sql`SELECT id, user_name FROM users
        WHERE user_name LIKE ${"%" + like + "%"} ESCAPE '\\'
        ORDER BY CASE WHEN lower(user_name) LIKE ${like + "%"} ESCAPE '\\' THEN 0 ELSE 1 END, lower(user_name), id
        LIMIT 10`,
  ]);
  return rows.map((r) => ({ _id: r.id, userName: r.user_name }));
}
