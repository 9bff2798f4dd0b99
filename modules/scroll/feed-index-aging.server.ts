// The repair pass's sweep of windowed indexes (decision 020, "Sorts that change"; decision 034,
// "Windowed rules bounded"): a most-liked rule over a day, a month or a year loses the entries
// whose echos left its window. Pages count aged entries among those they read (so rows stay
// bounded whatever this sweep does), but an index that still holds them answers short pages.
//
// Two walks per range, each bounded a pass and kept in `stats`:
// - **by echo id**: from where the last pass stopped (`feed_index_aged_<range>`, the window's
//   start it reached) to the window's start now, at most MAX_SPAN of echo ids a pass — so a cron
//   gap of any length leaves nothing behind once the passes after it caught up (the sweep before
//   removed a fixed 15-minute band: entries that aged during a gap stayed);
// - **by index, once** (`feed_index_aging_walk_<range>`, the last index id swept): a store whose
//   passes never kept that mark (every store before this build, a bench store) may hold entries
//   aged long before; the walk takes every aged entry out of AGING_INDEXES indexes a pass, in id
//   order, until it has seen every index of the range. The echo-id walk runs beside it, so when it
//   ends nothing older than the window is left in any index.
import { idFloor } from "../shared/index";
import { batch, select, sql, tables, type Db, type SQL } from "../shared/index.server";
import { keepStat } from "./feed-index.server";
import { TIME_RANGE_MS } from "./schema";

const RANGES = ["1day", "1month", "1year"] as const;
type Range = (typeof RANGES)[number];

/** Where a store with no mark starts its echo-id walk: the band the sweep used to cover (the cron runs every 5 minutes). */
const AGE_BAND = 15 * 60_000;
/** The most echo-id time one pass sweeps a range over (a day's echos' entries): a long gap is caught up a day a pass. */
const MAX_SPAN = 86_400_000;
/** Indexes the once-only walk sweeps a pass (each ≤ INDEX_CAP entries); FEED_INDEX_AGING_PER_PASS overrides it. */
export const AGING_INDEXES = 10;
/** The index walk's mark once it has seen every index of its range. */
const WALK_DONE = -1;

const agedKey = (range: Range) => `feed_index_aged_${range}`;
const walkKey = (range: Range) => `feed_index_aging_walk_${range}`;
const windowed = (range: Range) => sql`rule_key LIKE ${`%"sortBy":"mostLiked","sortTimeRange":"${range}"%`}`;

export type Aged = {
  /** entries removed */
  aged: number;
  /** the indexes they came from (a drained one is built again by the repair pass) */
  touched: number[];
  /** indexes the once-only walk swept this pass */
  walked: number;
};

/** One pass of both walks, over the three windowed ranges: three round trips (the marks, the deletes, the marks again). */
export async function sweepAged(db: Db, now: number, perPass = AGING_INDEXES): Promise<Aged> {
  const st = tables.stats;
  const keys = RANGES.flatMap((r) => [agedKey(r), walkKey(r)]);
  const [marks] = await batch(db, [select({ key: st.key, value: st.value }, sql`FROM stats WHERE key IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`)]);
  const mark = new Map(marks.map((m) => [m.key, m.value] as const));
  const statements: SQL[] = [];
  const plans = RANGES.map((range) => {
    const start = now - TIME_RANGE_MS[range];
    const from = mark.get(agedKey(range)) ?? start - AGE_BAND;
    const to = Math.min(start, from + MAX_SPAN);
    const byId = to > from;
    if (byId) {
      statements.push(sql`DELETE FROM feed_index_entries WHERE echo_id >= ${idFloor(from)} AND echo_id < ${idFloor(to)}
        AND index_id IN (SELECT id FROM feed_indexes WHERE ${windowed(range)}) RETURNING index_id`);
    }
    const walk = mark.get(walkKey(range)) ?? 0;
    const walking = walk !== WALK_DONE;
    if (walking) {
      const next = sql`SELECT id FROM feed_indexes WHERE id > ${walk} AND ${windowed(range)} ORDER BY id LIMIT ${perPass}`;
      statements.push(sql`SELECT coalesce(max(id), ${WALK_DONE}) AS last, count(*) AS n FROM (${next})`);
      statements.push(sql`DELETE FROM feed_index_entries WHERE index_id IN (${next}) AND echo_id < ${idFloor(start)} RETURNING index_id`);
    }
    return { range, to, byId, walking };
  });
  const results = (await batch(db, statements)) as unknown[][];
  const removed: number[] = [];
  const keep: SQL[] = [];
  let walked = 0;
  let at = 0;
  for (const { range, to, byId, walking } of plans) {
    if (byId) {
      removed.push(...(results[at++] as { index_id: number }[]).map((r) => r.index_id));
      keep.push(keepStat(agedKey(range), to));
    }
    if (walking) {
      const { last, n } = (results[at++] as { last: number; n: number }[])[0]!;
      removed.push(...(results[at++] as { index_id: number }[]).map((r) => r.index_id));
      walked += n;
      keep.push(keepStat(walkKey(range), n < perPass ? WALK_DONE : last));
    }
  }
  if (keep.length > 0) await batch(db, keep);
  return { aged: removed.length, touched: [...new Set(removed)], walked };
}
