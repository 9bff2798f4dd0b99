// How many echos a feed rule matches, for the live preview (docs/decisions/012-preview-why-fork.md),
// within the same row budget as a page: never a COUNT over the store. Two cheap sources, each
// exact in some cases and a bound in the others:
// - the exact counters (tags.echo_count, users.echos_count, stats 'echos'): exact when the rule is
//   a single stream with nothing tested on its entries, an upper bound always;
// - a bounded scan of the rule's streams in id order: exact when the streams end inside it, a
//   lower bound otherwise.
import { isId } from "../shared/index";
import { echoVisibleProbeText, lit, select, sql, tables, viewerFiltersText, type RowOf, type SQL } from "../shared/index.server";
import { idBounds, mergeParts, provablyEmpty, streamPart, streams, testsOnEchoRow } from "./feed-rules.server";
import type { FeedRule } from "./schema";

/** Above this many matches the preview says "10,000+" (the counters know more; a person does
 * not need to). */
export const MATCH_COUNT_CAP = 10_000;

/** What the counters say: `upper` always bounds the count; `exact` (1) when nothing beyond the
 * one stream (or disjoint author streams) is tested, so the counter is the count; and how many of
 * the rule's authors exist. */
const counterColumns = (lower: SQL, upper: SQL, exact: number, authorsFound: SQL) => ({
  lower: sql<number>`${lower}`,
  upper: sql<number>`${upper}`,
  exact: sql<number>`${exact}`,
  authorsFound: sql<number>`${authorsFound}`,
});
export type CounterRow = RowOf<ReturnType<typeof counterColumns>>;

/** Nothing tested on an entry beyond what its stream is: no exclusion, date, time window or
 * hide-liked (tags under an author rule are a test too). */
function untested(rule: FeedRule): boolean {
  return (
    rule.excludedTags.length === 0 &&
    rule.startDate === null &&
    rule.endDate === null &&
    (rule.sortBy !== "mostLiked" || rule.sortTimeRange === "allTime") &&
    !rule.excludeLikedEchos &&
    // the counters count replies too: exact only for a rule that shows them
    rule.replies === true
  );
}

const jsonList = (list: string[]) => JSON.stringify(list);

/**
 * One statement over the counters of the rule's drivers (at most 25 rows): the authors (whose
 * echos are disjoint), else the included tags, else every echo. It also counts the rule's
 * authors that exist, which the preview checks as create does.
 */
export function counterQuery(rule: FeedRule) {
  const plain = untested(rule);
  const { users, tags, stats } = tables;
  if (rule.authors.length > 0) {
    const exact = plain && rule.includedTags.length === 0 ? 1 : 0;
    return select(
      counterColumns(sql`coalesce(sum(${users.echosCount}), 0) * ${exact}`, sql`coalesce(sum(${users.echosCount}), 0)`, exact, sql`count(*)`),
      sql`FROM users WHERE id IN (SELECT value FROM json_each(${jsonList(rule.authors)}))`,
    );
  }
  if (rule.includedTags.length > 0) {
    const live = rule.includedTags.filter((t) => !rule.excludedTags.includes(t));
    const all = rule.tagMatchType === "all" && rule.includedTags.length > 1;
    // any-of: every tag's echos are in (max is a lower bound, sum an upper one); all-of: at most
    // the rarest tag's; a tag no echo carries has no row and counts 0
    const exact = plain && live.length === 1 ? 1 : 0;
    const lower = !all && plain ? sql`coalesce(max(${tags.echoCount}), 0)` : sql`0`;
    const upper = all
      ? sql`CASE WHEN count(*) < ${sql.raw(String(live.length))} THEN 0 ELSE coalesce(min(${tags.echoCount}), 0) END`
      : sql`coalesce(sum(${tags.echoCount}), 0)`;
    return select(counterColumns(lower, upper, exact, sql`0`), sql`FROM tags WHERE name IN (SELECT value FROM json_each(${jsonList(live)}))`);
  }
  const exact = plain ? 1 : 0;
  return select(counterColumns(sql`${stats.value} * ${exact}`, sql`${stats.value}`, exact, sql`0`), sql`FROM stats WHERE key = 'echos'`);
}

/** Rows the scan may read: with the page's window and the counters, a preview stays ≤ 200. */
export const COUNT_SCAN_ROWS = 50;

/** The scan's result: entries read (up to the cut plus one), distinct matches among them, and
 * the cut it used (`cut`: half the entries for a viewer whom anything may hide, below). */
const scanColumns = (entries: SQL, matches: SQL, cut: SQL = sql`NULL`) => ({ entries: sql<number>`${entries}`, matches: sql<number>`${matches}`, cut: sql<number | null>`${cut}` });
export type ScanRow = RowOf<ReturnType<typeof scanColumns>>;

/** The scan of a rule that provably matches nothing: it has no streams, and reads nothing. */
export const emptyScanQuery = () => select(scanColumns(sql`0`, sql`0`), sql``);

/**
 * The rule's streams in id order (any order counts the same, and id-ordered streams seek the
 * dates and the time window instead of testing them), cut after `entries` + 1 entries: fewer
 * read means every stream ended, so the matches are the count. For a viewer whom anything may
 * hide (issue 32), a match counts only if its echo's probe shows it (a row each), so the cut is
 * half as deep: the scan stays within its rows.
 */
export function countScanQuery(rule: FeedRule, viewerId: string, now: number, entries: number) {
  const byId: FeedRule = { ...rule, sortBy: "newestFirst", sortTimeRange: "allTime", startDate: idBounds(rule, now).from };
  const parts = streams(byId).map((s) => streamPart(byId, s, viewerId, now, null));
  if (!Number.isSafeInteger(entries) || !isId(viewerId)) throw new Error("feed count: not an integer");
  const filters = sql.raw(viewerFiltersText(lit(viewerId)));
  const cut = sql`CASE WHEN ${filters} THEN ${sql.raw(String(Math.max(1, Math.floor(entries / 2))))} ELSE ${sql.raw(String(entries))} END`;
  return select(
    scanColumns(sql`count(*)`, sql`count(DISTINCT CASE WHEN m.ok AND (NOT ${filters} OR ${sql.raw(echoVisibleProbeText(lit(viewerId), "m.id", "feeds"))}) THEN m.id END)`, cut),
    sql`FROM (SELECT id, ok FROM (${sql.raw(mergeParts(parts))}) LIMIT ${cut} + 1) m`,
  );
}

/** Entries the scan may read for a rule: each costs its index entry, plus the like probe with
 * hide-liked and the echo row when an echos-table stream tests tags. */
export function scanEntries(rule: FeedRule, rows = COUNT_SCAN_ROWS): number {
  const list = streams(rule);
  const tagTestOnEcho = testsOnEchoRow(rule);
  const perEntry = 1 + Number(rule.excludeLikedEchos) + Number(tagTestOnEcho);
  const rarest = rule.tagMatchType === "all" && rule.authors.length === 0 ? 2 * rule.includedTags.length + 1 : 0;
  return Math.max(1, Math.floor((rows - list.length - rarest) / perEntry));
}

export type MatchCount = { matchCount: number; matchCountExact: boolean };

/**
 * The count from what was read: exact when the counters are the count, the scan saw every
 * stream end, the first page holds every match, or the matches seen reach the upper bound;
 * otherwise the most matches known to exist. Capped at MATCH_COUNT_CAP ("10,000+").
 */
export function matchCount(
  rule: FeedRule,
  now: number,
  read: { counters: CounterRow | undefined; scan: ScanRow | undefined; scanEntries: number; pageMatches: number; pageComplete: boolean },
): MatchCount {
  if (provablyEmpty(rule, now)) return { matchCount: 0, matchCountExact: true };
  const upper = read.counters?.upper ?? Number.MAX_SAFE_INTEGER;
  const seen = read.scan?.matches ?? 0;
  let exact: number | null = null;
  if (read.counters?.exact) exact = upper;
  else if (read.pageComplete) exact = read.pageMatches;
  else if (read.scan && read.scan.entries <= (read.scan.cut ?? read.scanEntries)) exact = seen;
  else if (seen >= upper) exact = upper;
  const known = exact ?? Math.max(read.counters?.lower ?? 0, seen, read.pageMatches);
  if (known > MATCH_COUNT_CAP) return { matchCount: MATCH_COUNT_CAP, matchCountExact: false };
  return { matchCount: known, matchCountExact: exact !== null };
}
