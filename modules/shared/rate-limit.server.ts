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
