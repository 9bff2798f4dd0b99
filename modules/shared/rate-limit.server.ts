import { sql, type SQL } from "drizzle-orm";
import { returning, select, type Result, type Statement } from "./sql/statement.server";
import { batch } from "./sql/batch.server";
import type { Db } from "./context.server";
import { rateLimits } from "./db/schema";
import { HttpError } from "./http";

/** Count one attempt on a fixed-window counter (created at 1); with `guard`, only where it holds. */
export const countAttempt = (key: string, windowStart: number, guard?: SQL) =>
  guard
    ? // SQLite's upsert from a SELECT needs its WHERE (here the guard) to parse
      sql`INSERT INTO ${rateLimits} (key, window_start, count) SELECT ${key}, ${windowStart}, 1 WHERE ${guard}
        ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1`
    : sql`INSERT INTO ${rateLimits} (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
        ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1`;

/** How many attempts a counter holds in its window. */
export const attempts = (key: string, windowStart: number) =>
  select({ count: rateLimits.count }, sql`FROM ${rateLimits} WHERE ${rateLimits.key} = ${key} AND ${rateLimits.windowStart} = ${windowStart}`);

export type Limit = { key: string; limit: number; windowMs: number };

/**
 * Fixed-window counters in D1: one atomic upsert per limit, all limits in one batch (one round
 * trip), so parallel requests count exactly. Throws 429 with Retry-After when any is exceeded.
 */
export async function rateLimit(db: Db, limits: [Limit, ...Limit[]], now = Date.now()) {
  const results = await batch(
    db,
    limits.map(({ key, windowMs }) => returning(countAttempt(key, now - (now % windowMs)), { count: rateLimits.count })),
  );
  let retryAfter = 0;
  limits.forEach(({ limit, windowMs }, i) => {
    const count = results[i]?.[0]?.count ?? 0;
    if (count > limit) {
      const windowStart = now - (now % windowMs);
      retryAfter = Math.max(retryAfter, Math.ceil((windowStart + windowMs - now) / 1000), 1);
    }
  });
  if (retryAfter > 0) {
    throw new HttpError(429, `Too many attempts. Try again in ${retryAfter} seconds.`, {
      "Retry-After": String(retryAfter),
    });
  }
}

/**
 * A limit folded into a write's own batch (no extra round trip): `upsert` counts the attempt,
 * `within` is a SQL condition the write statements carry, `count` reads the counter back so the
 * caller can answer 429 when the write was skipped.
 */
export function inlineLimit(key: string, limit: number, windowMs: number, now = Date.now(), guard?: SQL) {
  const windowStart = now - (now % windowMs);
  return {
    upsert: countAttempt(key, windowStart, guard),
    within: sql`(SELECT count FROM rate_limits WHERE key = ${key} AND window_start = ${windowStart}) <= ${limit}`,
    count: attempts(key, windowStart),
    exceeded(count: number | undefined): HttpError | null {
      if (count === undefined || count <= limit) return null;
      const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
      return new HttpError(429, `Too many requests. Try again in ${retryAfter} seconds.`, { "Retry-After": String(retryAfter) });
    },
  };
}

/**
 * Per-account limits (issues 12 and 28): generous, a real user never meets them. Every one is
 * listed, with its reason, in docs/security.md ("Per-account limits"); posts and likes are in
 * modules/echo/echo.server.ts (POST_LIMIT, LIKE_LIMIT).
 */
export const WRITE_LIMITS = {
  scrollCreate: { limit: 60, windowMs: 10 * 60_000 },
  scrollEdit: { limit: 200, windowMs: 10 * 60_000 },
  profileEdit: { limit: 60, windowMs: 10 * 60_000 },
  report: { limit: 60, windowMs: 10 * 60_000 },
  /** follow and unfollow calls, users and scrolls together (a user follow writes timeline rows) */
  follow: { limit: 200, windowMs: 10 * 60_000 },
  /** block and unblock calls: a long block list taken over in one sitting (a block also ends
   * follows both ways and their notifications; at most MAX_BLOCKS are kept) */
  block: { limit: 1_200, windowMs: 60 * 60_000 },
  /** mute and unmute calls */
  mute: { limit: 300, windowMs: 10 * 60_000 },
  /** adding and removing muted words (decision 028; at most MAX_MUTED_WORDS are kept) */
  mutedWord: { limit: 120, windowMs: 10 * 60_000 },
  /** adding and removing echos of one's curations */
  curate: { limit: 600, windowMs: 10 * 60_000 },
  share: { limit: 300, windowMs: 10 * 60_000 },
  /** repost and undo calls (decision 027): each writes up to 101 timeline rows and streams the rest */
  repost: { limit: 100, windowMs: 10 * 60_000 },
  /** echo edits (decision 025): each keeps a version and may rewrite tag links and feed indexes */
  echoEdit: { limit: 60, windowMs: 10 * 60_000 },
  notificationsRead: { limit: 120, windowMs: 10 * 60_000 },
  /** POST /api/scroll/preview: a read, but a feed page's worth of rows each */
  preview: { limit: 300, windowMs: 10 * 60_000 },
  /** GET /api/profile/me/export: a round trip per 200 rows of the whole history */
  export: { limit: 10, windowMs: 60 * 60_000 },
  /** moderator actions (decision 029): assign, resolve, hide, warn, limit, suspend and their lifting */
  moderate: { limit: 600, windowMs: 10 * 60_000 },
  /** appeals of moderator actions (each action is appealable once anyway) */
  appeal: { limit: 10, windowMs: 60 * 60_000 },
  /** GET /api/live handshakes (each one registers the socket with two live objects) */
  liveHandshake: { limit: 60, windowMs: 60_000 },
} as const;

export type WriteLimitKind = keyof typeof WRITE_LIMITS;

/** The inline limit (see inlineLimit) of the account's limit `kind`. */
export const accountLimit = (kind: WriteLimitKind, accountId: string, now = Date.now()) =>
  inlineLimit(`${kind}:${accountId}`, WRITE_LIMITS[kind].limit, WRITE_LIMITS[kind].windowMs, now);

/**
 * Run a write batch under the account's limit `kind`, in the same round trip: the counter is
 * bumped first, every write statement must carry `within` in its WHERE (so a refused write writes
 * nothing), and 429 + Retry-After is thrown when the limit was passed. Returns the statements'
 * results (without the limit's own).
 */
export async function batchUnderLimit<const S extends readonly Statement[]>(
  db: Db,
  kind: WriteLimitKind,
  accountId: string,
  statements: (within: SQL) => S,
): Promise<{ -readonly [K in keyof S]: Result<S[K]> }> {
  const limit = accountLimit(kind, accountId);
  const results = await batch(db, [limit.upsert, ...statements(limit.within), limit.count]);
  const counts = results[results.length - 1] as Result<typeof limit.count>;
  const tooMany = limit.exceeded(counts[0]?.count);
  if (tooMany) throw tooMany;
  return results.slice(1, -1) as { -readonly [K in keyof S]: Result<S[K]> };
}
