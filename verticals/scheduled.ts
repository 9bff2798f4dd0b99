// Cron jobs (verticals/community/wrangler.toml [triggers]): the community vertical runs them.
// Kept apart from the fetch entry so tests can import it without the virtual server build.
import { and, isNotNull, lt, lte, or } from "drizzle-orm";
import { purgeAccount } from "../modules/auth/index.server";
import { runRanking } from "../modules/community/index.server";
import { suspendedPastGrace } from "../modules/moderation/index.server";
import { trimTimelines } from "../modules/echo/index.server";
import { repairIndexes } from "../modules/scroll/index.server";
import { createDb, tables } from "../modules/shared/index.server";

/**
 * Prune what can no longer matter: expired or revoked sessions, finished rate-limit windows, mutes
 * that ended (issue 32: their triggers take them out of the hidden-author sets; the lists already
 * showed the author again at the mute's end).
 */
export async function pruneSessions(env: Env, now: number): Promise<{ sessions: number; rateLimits: number; mutes: number }> {
  const db = createDb(env.DB);
  const { sessions, rateLimits, mutes } = tables;
  const [s, r, m] = await db.batch([
    db.delete(sessions).where(or(lt(sessions.expiresAt, now), isNotNull(sessions.revokedAt))),
    db.delete(rateLimits).where(lt(rateLimits.windowStart, now - 3600_000)),
    db.delete(mutes).where(and(isNotNull(mutes.expiresAt), lte(mutes.expiresAt, now))),
  ]);
  return { sessions: s.meta.changes, rateLimits: r.meta.changes, mutes: m.meta.changes };
}

/**
 * Suspensions past their 30 days (decision 029): the accounts are deleted as account deletion
 * deletes them, a few a run, each one batch guarded by the suspension still holding.
 */
export async function purgeSuspended(env: Env, now: number): Promise<number> {
  const db = createDb(env.DB);
  let deleted = 0;
  for (const { id, guard } of await suspendedPastGrace(db, now)) {
    if (await purgeAccount({ db, env }, id, guard)) deleted++;
  }
  return deleted;
}

/**
 * Every 5 minutes: rank (tag counts, trending, popular lists → D1 and KV), prune, trim the
 * next slice of Following timelines back to their cap (decision 013), and repair the feed indexes
 * (decision 020).
 */
export async function runScheduled(env: Env, now: number, ctx?: ExecutionContext) {
  const ranking = await runRanking(env, now);
  const pruned = await pruneSessions(env, now);
  const suspendedDeleted = await purgeSuspended(env, now);
  const timelines = await trimTimelines(env);
  // the feed indexes' repair pass (decision 020): what a lost message missed, stuck backfills
  // (FEED_INDEX_KEYS_PER_PASS: how many unkeyed feeds one pass keys; `npm run bench:data` keys a whole store)
  const keys = Number((env as { FEED_INDEX_KEYS_PER_PASS?: string }).FEED_INDEX_KEYS_PER_PASS) || undefined;
  const feedIndexes = ctx ? await repairIndexes({ env, ctx }, createDb(env.DB), now, undefined, keys) : null;
  return { ranking, pruned, suspendedDeleted, timelines, feedIndexes };
}
