// Every feed scroll's KV hint, kept without waiting for a reader (issue 27, decision 020 "A cold
// isolate's first page" and "Every feed hinted"). A cold isolate's first page of a feed rides in
// its lookup's round trip only when KV holds the scroll's hint (feed-hint.server.ts); a scroll no
// isolate had read since hints were kept, and whose rule was not edited since, had none, so that
// first page past an index's frontier was the engine's, short. Hints are written here by the
// writers of what they say, never per read (KV takes one write a second per key, and writes cost):
// - a save (create, fork, rule edit) writes its scroll's, with its index's reach when ready;
// - the consumer, when a backfill makes an index ready, writes the hints of the scrolls that
//   read it (HINTS_ON_READY a batch; the cron's walk finds any it left);
// - the cron walks every feed scroll in id order (HINTS_PER_PASS a run, its place kept in `stats`),
//   writing each one's hint — existing scrolls once, then each new scroll as the walk, resting at
//   the newest id, meets it — and starts the walk again every HINT_REFRESH_MS, before the hints'
//   TTL ends them. A scroll whose index is still building is passed: its consumer writes it.
import { alias } from "drizzle-orm/sqlite-core";
import { idFloor, idTime } from "../shared/index";
import { batch, select, sql, tables, type AppContext, type Db, type RowOf, type SQL } from "../shared/index.server";
import { keepStat, ofEverything, reachOf } from "./feed-index.server";
import { HINT_TTL_SECONDS, putHint, type FeedHint } from "./feed-hint.server";
import { ruleColumns, toRule } from "./rule.server";

/** Hints the cron writes a run (a KV write each; a Worker invocation makes at most 1,000 KV calls). */
export const HINTS_PER_PASS = 250;
/** Hints the consumer writes after a batch that made indexes ready (more scrolls: the cron's walk). */
export const HINTS_ON_READY = 100;
/** The walk starts again this long after its last start: every hint rewritten before its TTL. */
export const HINT_REFRESH_MS = HINT_TTL_SECONDS * 1000 - 10 * 24 * 3600_000;

const WALKED = "feed_hints_walked_to";
const PASS_AT = "feed_hints_pass_at";

const s = alias(tables.scrolls, "s");
const hintColumns = () => ({
  id: s.id,
  ...ruleColumns(s),
  complete: sql<number | null>`fi.complete`,
  floor: sql<string | null>`fi.floor`,
  floorRank: sql<number | null>`fi.floor_rank`,
  near: sql<string | null>`fi.near`,
  nearRank: sql<number | null>`fi.near_rank`,
});
type HintRow = RowOf<ReturnType<typeof hintColumns>>;
/** Feed scrolls with their rule and their index's reach when ready (one scroll row, one index row
 * each); `inIdOrder`: the cron's walk (the primary key's order), else as an index on `where` finds them. */
const hintRows = (where: SQL, limit: number, inIdOrder: boolean) =>
  select(
    hintColumns(),
    sql`FROM scrolls s LEFT JOIN feed_indexes fi ON fi.rule_key = s.rule_key AND fi.state = 'ready'
      WHERE s.type = 'feed' AND ${where} ${inIdOrder ? sql`ORDER BY s.id` : sql``} LIMIT ${limit}`,
  );

/** A row's hint: its rule, and its ready index's reach — none for a rule whose index is not ready
 * (a rule of everything's says its rule meanwhile: its plain readers read the engine). */
function hintOf(row: HintRow): FeedHint | null {
  const rule = toRule(row);
  if (row.complete === null) return ofEverything(rule) ? { rule, reach: null } : null;
  return { rule, reach: reachOf({ ...row, complete: row.complete }) };
}

/** Write these scrolls' hints; how many KV took. */
async function writeHints(app: Pick<AppContext, "env" | "ctx">, rows: HintRow[]): Promise<number> {
  const written = await Promise.all(rows.map((row) => [row, hintOf(row)] as const).flatMap(([row, hint]) => (hint ? [putHint(app, row.id, hint)] : [])));
  return written.filter(Boolean).length;
}

/** After backfills made these rules' indexes ready: the hints of the scrolls that read them. */
export async function hintReadyIndexes(app: Pick<AppContext, "env" | "ctx">, db: Db, ruleKeys: string[]): Promise<number> {
  if (ruleKeys.length === 0) return 0;
  const [rows] = await batch(db, [hintRows(sql`s.rule_key IN (SELECT value FROM json_each(${JSON.stringify([...new Set(ruleKeys)])}))`, HINTS_ON_READY, false)]);
  return writeHints(app, rows);
}

/**
 * The cron's walk: the next `perPass` feed scrolls in id order from where the last run stopped,
 * each one's hint written. A millisecond the limit splits is read whole by the next run (unless
 * the whole read is one millisecond). Returns the hints written and where the walk stands.
 */
export async function keepFeedHints(app: Pick<AppContext, "env" | "ctx">, db: Db, now = Date.now(), perPass = HINTS_PER_PASS): Promise<{ hinted: number; walkedTo: number }> {
  const st = tables.stats;
  const [marks] = await batch(db, [select({ key: st.key, value: st.value }, sql`FROM stats WHERE key IN (${WALKED}, ${PASS_AT})`)]);
  const mark = new Map(marks.map((m) => [m.key, m.value] as const));
  let from = mark.get(WALKED) ?? 0;
  let passAt = mark.get(PASS_AT) ?? now;
  if (now - passAt >= HINT_REFRESH_MS) [from, passAt] = [0, now];
  const [rows] = await batch(db, [hintRows(sql`s.id >= ${idFloor(from)}`, perPass, true)]);
  const last = rows.length > 0 ? idTime(rows[rows.length - 1]!.id) : null;
  const split = rows.length === perPass && rows.some((r) => idTime(r.id) < last!);
  const taken = split ? rows.filter((r) => idTime(r.id) < last!) : rows;
  const walkedTo = last === null ? from : split ? last : last + 1;
  const hinted = await writeHints(app, taken);
  await batch(db, [keepStat(WALKED, walkedTo), keepStat(PASS_AT, passAt)]);
  return { hinted, walkedTo };
}
