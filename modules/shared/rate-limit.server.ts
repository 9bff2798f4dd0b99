import { sql, type SQL } from "drizzle-orm";
import { batchAll } from "./sql.server";
import type { Db } from "./context.server";
import { HttpError } from "./http";

export type Limit = { key: string; limit: number; windowMs: number };

/**
 * Fixed-window counters in D1: one atomic upsert per limit, all limits in one batch (one round
 * trip), so parallel requests count exactly. Throws 429 with Retry-After when any is exceeded.
 */
export async function rateLimit(db: Db, limits: [Limit, ...Limit[]], now = Date.now()) {
  const d1 = db.$client;
  const statements = limits.map(({ key, windowMs }) =>
    d1
      .prepare(
        `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
         ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 RETURNING count`,
      )
      .bind(key, now - (now % windowMs)),
  );
  const results = (await d1.batch<{ count: number }>(statements)).map((r: D1Result<{ count: number }>) => r.results);
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
export function inlineLimit(key: string, limit: number, windowMs: number, now = Date.now()) {
  const windowStart = now - (now % windowMs);
  return {
    upsert: sql`INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
      ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1`,
    within: sql`(SELECT count FROM rate_limits WHERE key = ${key} AND window_start = ${windowStart}) <= ${limit}`,
    count: sql`SELECT count FROM rate_limits WHERE key = ${key} AND window_start = ${windowStart}`,
    exceeded(count: number | undefined): HttpError | null {
      if (count === undefined || count <= limit) return null;
      const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
      return new HttpError(429, `Too many requests. Try again in ${retryAfter} seconds.`, { "Retry-After": String(retryAfter) });
    },
  };
}

/** Per-account write limits (issue 12): generous, a real user never meets them (docs/security.md). */
export const WRITE_LIMITS = {
  scrollCreate: { limit: 60, windowMs: 10 * 60_000 },
  scrollEdit: { limit: 200, windowMs: 10 * 60_000 },
  profileEdit: { limit: 60, windowMs: 10 * 60_000 },
  report: { limit: 60, windowMs: 10 * 60_000 },
} as const;

/**
 * Run a write batch under the account's limit `kind`, in the same round trip: the counter is
 * bumped first, every write statement must carry `within` in its WHERE (so a refused write writes
 * nothing), and 429 + Retry-After is thrown when the limit was passed. Returns the statements'
 * results (without the limit's own).
 */
export async function batchWithinLimit<R extends unknown[][]>(
  db: Db,
  kind: keyof typeof WRITE_LIMITS,
  accountId: string,
  statements: (within: SQL) => SQL[],
): Promise<R> {
  const { limit: max, windowMs } = WRITE_LIMITS[kind];
  const limit = inlineLimit(`${kind}:${accountId}`, max, windowMs);
  const results = await batchAll<unknown[][]>(db, [limit.upsert, ...statements(limit.within), limit.count]);
  const tooMany = limit.exceeded((results[results.length - 1] as { count: number }[])[0]?.count);
  if (tooMany) throw tooMany;
  return results.slice(1, -1) as R;
}
