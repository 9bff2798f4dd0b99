// Cron jobs (wrangler.toml [triggers]). Kept apart from the fetch entry so tests can import it
// without the virtual server build.
import { lt, or, isNotNull } from "drizzle-orm";
import { createDb, tables } from "../modules/shared/index.server";

/** Prune what can no longer matter: expired or revoked sessions, finished rate-limit windows. */
export async function runScheduled(env: Env, now: number): Promise<{ sessions: number; rateLimits: number }> {
  const db = createDb(env.DB);
  const { sessions, rateLimits } = tables;
  const [s, r] = await db.batch([
    db.delete(sessions).where(or(lt(sessions.expiresAt, now), isNotNull(sessions.revokedAt))),
    db.delete(rateLimits).where(lt(rateLimits.windowStart, now - 3600_000)),
  ]);
  return { sessions: s.meta.changes, rateLimits: r.meta.changes };
}
