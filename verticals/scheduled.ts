// Cron jobs (verticals/community/wrangler.toml [triggers]): the community vertical runs them.
// Kept apart from the fetch entry so tests can import it without the virtual server build.
import { and, isNotNull, lt, lte, or } from "drizzle-orm";
import { consumeAccountPurges, purgeAccount } from "../modules/auth/index.server";
import { runRanking } from "../modules/community/index.server";
import { suspendedPastGrace } from "../modules/moderation/index.server";
import { consumeEchoPurges, consumeTimelineChanges, trimTimelines } from "../modules/echo/index.server";
import { consumeNoticeRefreshes, refreshEndedMutes } from "../modules/notification/index.server";
import { pruneEndedWords } from "../modules/profile/index.server";
import { keepFeedHints, repairIndexes, walkDenseLikes } from "../modules/scroll/index.server";
import { batch, createDb, instrumentD1, sendChanges, stalledChains, tables, type Change, type D1Stats } from "../modules/shared/index.server";

/**
 * Prune what can no longer matter: expired or revoked sessions, finished rate-limit windows, mutes
 * that ended (issue 32: their triggers take them out of the hidden-author sets; the lists already
 * showed the author again at the mute's end, but for notification groups stored as not shown,
 * whose refresh starts here).
 */
export async function pruneSessions(env: Env, now: number, ctx?: ExecutionContext): Promise<{ sessions: number; rateLimits: number; mutes: number }> {
  const db = createDb(env.DB);
  const { sessions, rateLimits, mutes } = tables;
  // the muters' notification groups hidden by the mutes that ended show again once refreshed
  // (decision 015, "Shown groups kept on write"): their chains start before the mutes go
  const [ended] = await batch(db, [refreshEndedMutes(now)]);
  if (ctx) sendChanges({ env, ctx }, ended.map((row) => JSON.parse(row.change) as Change));
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
export async function purgeSuspended(env: Env, now: number, ctx?: ExecutionContext): Promise<number> {
  const db = createDb(env.DB);
  let deleted = 0;
  for (const { id, guard } of await suspendedPastGrace(db, now)) {
    if (await purgeAccount({ db, env, ctx }, id, guard)) deleted++;
  }
  return deleted;
}

/**
 * Every 5 minutes: rank (tag counts, trending, popular lists → D1 and KV), prune, trim the
 * next slice of Following timelines back to their cap (decision 013), repair the feed indexes,
 * write the next feeds' KV hints (decision 020) and walk the next hide-liked indexes' likes (033).
 */
export async function runScheduled(env: Env, now: number, ctx?: ExecutionContext) {
  const ranking = await runRanking(env, now);
  const pruned = await pruneSessions(env, now, ctx);
  // timed muted words that ended: pruned, and their viewers' notification groups refreshed (decision 015)
  const endedWords = ctx ? await pruneEndedWords({ db: createDb(env.DB), env, ctx }, now) : 0;
  const suspendedDeleted = await purgeSuspended(env, now, ctx);
  const timelines = await trimTimelines(env);
  // the feed indexes' repair pass (decision 020): what a lost message missed, stuck backfills
  // (FEED_INDEX_KEYS_PER_PASS: how many unkeyed feeds one pass keys; `npm run bench:data` keys a whole store)
  const keys = Number((env as { FEED_INDEX_KEYS_PER_PASS?: string }).FEED_INDEX_KEYS_PER_PASS) || undefined;
  // the echos the ranking pass found liked since the last pass: a lost like message is among them
  const feedIndexes = ctx ? await repairIndexes({ env, ctx }, createDb(env.DB), now, undefined, keys, ranking.echoIds) : null;
  const chains = ctx ? await replayChains({ env, ctx }, now) : null;
  // every feed scroll's KV hint, a bounded walk a run (decision 020, "Every feed hinted";
  // FEED_HINTS_PER_PASS: how many a run — a bench hints a whole store in one)
  const perPass = Number((env as { FEED_HINTS_PER_PASS?: string }).FEED_HINTS_PER_PASS) || undefined;
  const feedHints = ctx ? await keepFeedHints({ env, ctx }, createDb(env.DB), now, perPass) : null;
  // hide-liked readers' viewer indexes for likes no like message checked (decision 033, "The
  // walk over existing likes"; FEED_DENSE_INDEXES_PER_PASS: shared indexes read a run)
  const denseLikes = ctx ? await walkDenseLikesTraced({ env, ctx }, now) : null;
  return { ranking, pruned, endedWords, suspendedDeleted, timelines, feedIndexes, chains, feedHints, denseLikes };
}

/** The walk; with FEED_INDEX_TRACE="1" (benches), a line of what it did and cost D1 (warn: the log level lint allows). */
async function walkDenseLikesTraced(app: { env: Env; ctx: ExecutionContext }, now: number) {
  const vars = app.env as { FEED_DENSE_INDEXES_PER_PASS?: string; FEED_INDEX_TRACE?: string };
  const trace: D1Stats | null = vars.FEED_INDEX_TRACE === "1" ? { roundTrips: 0, rowsRead: 0, rowsWritten: 0 } : null;
  const started = Date.now();
  const done = await walkDenseLikes(app, createDb(trace ? instrumentD1(app.env.DB, trace) : app.env.DB), now, Number(vars.FEED_DENSE_INDEXES_PER_PASS) || undefined);
  if (trace) console.warn(`[dense-likes-walk] ${JSON.stringify({ ...done, ms: Date.now() - started, ...trace })}`);
  return done;
}

/**
 * The change stream's chains whose message was lost (decision 032): the oldest stalled ones run
 * their next step here (CHAINS_PER_PASS a pass); that step moves the chain and sends the one after
 * it, so a chain lost again is picked up again by a later pass.
 */
export async function replayChains(app: { env: Env; ctx: ExecutionContext }, now: number): Promise<{ replayed: number }> {
  const db = createDb(app.env.DB);
  const changes = await stalledChains(db, now);
  if (changes.length > 0) {
    await consumeTimelineChanges(app, db, changes);
    await consumeAccountPurges(app, db, changes);
    await consumeEchoPurges(app, db, changes);
    await consumeNoticeRefreshes(app, db, changes, now);
  }
  return { replayed: changes.length };
}
