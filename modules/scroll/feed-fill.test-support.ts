// The filling round trip's tests (decision 034): a feed read to its end the way a client reads it.
import { expect } from "vitest";
import { measured } from "./depth-paging.test-support";

/**
 * The feed read to its end by cursor, then by number (page n with its cursor), as a GET reads each
 * page: each visible match once and in order, each page ≤ 2 round trips and ≤ 200 rows. Counts
 * the pages short of 20 with more to come; `sizes`, the echos of each page by cursor.
 */
export async function walk(env: Env, viewerId: string, scrollId: string, expected: string[], label = "") {
  let short = 0;
  let pages = 0;
  let maxRows = 0;
  const sizes: number[] = [];
  for (const byNumber of [false, true]) {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let n = 1; n <= 200; n++) {
      const { got, stats } = await measured(env, viewerId, scrollId, byNumber ? n : 1, cursor);
      const at = `${label}${byNumber ? " by number" : ""} page ${n}: ${got.echos.length} echos`;
      expect(stats.roundTrips, at).toBeLessThanOrEqual(2);
      expect(stats.rowsRead, at).toBeLessThanOrEqual(200);
      maxRows = Math.max(maxRows, stats.rowsRead);
      seen.push(...got.echos.map((e) => e._id));
      if (!byNumber) sizes.push(got.echos.length);
      cursor = got.pagination.nextCursor ?? undefined;
      pages++;
      if (got.echos.length < 20 && cursor) short++;
      if (!cursor) break;
    }
    expect(seen).toEqual(expected);
  }
  return { short, pages, maxRows, sizes };
}
