// The feed index (issue 27, docs/decisions/020-feed-index.md): a feed's newest matches, kept on
// write from the change stream (Cloudflare Queues; modules/shared/change-stream.server.ts), so a
// feed the engine can only fill a window at a time (a sparse rule: its first screen took up to 40
// requests) answers a full page in one. One index per canonical rule: identical rules (forks, the
// many copies of one rule) share it. The engine (feed-rules.server.ts) stays the reference, the
// backfill's reader, and the server of what the index does not hold.
//
// This file: what an index is — which rules have one, its key and terms, positions in a feed's
// order and how far an index reaches, the isolate's hints, and the SQL of its entries. Beside it:
// the consumer of the change stream (feed-index-consumer), the backfill (feed-index-backfill),
// the pages (feed-index-pages), the cron's repair pass (feed-index-repair, feed-index-replay).
import { isId } from "../shared/index";
import { boundedHints, echoSeenForGoodText, lit, sendChanges, select, sql, type AppContext, type SQL } from "../shared/index.server";
import { NOBODY, type Seek } from "./feed-rules.server";
import { canonicalRule, ruleKeyOf } from "./rule.server";
import { TIME_RANGE_MS, type FeedRule } from "./schema";

/**
 * Entries an index keeps: its rule's first 10,000 matches in the feed's order (500 pages of 20;
 * a short window's most liked: its 10,000 most liked). Every rule keeps them: no engine window
 * fills a screen for every reader (a reader who hides what they liked gets 18–23 entries), so no
 * rule is left to the engine (decision 020, "No dense rules"). Past the frontier, the engine serves.
 */
export const INDEX_CAP = 10_000;
/** A viewer for the engine where no viewer matters (the canonical rule never hides liked echos). */
export const NO_VIEWER = NOBODY;

/**
 * A rule "of everything": newest- or oldest-first with no tag, author or exclusion (dates and
 * replies aside). Every rule has an index (registered under `*`: every post is its candidate), so
 * a reader whose pages may skip entries — a heavy hider, a hide-liked reader — gets a viewer index
 * of it (decision 033, "Feeds of everything, indexed"). Its engine reads the echos table in its own
 * order, every entry a match: a reader whom nothing may hide is served there, as before (an index
 * page costs an entry row an echo more).
 */
export const ofEverything = (rule: FeedRule): boolean =>
  rule.sortBy !== "mostLiked" && rule.includedTags.length === 0 && rule.authors.length === 0 && rule.excludedTags.length === 0;

/** A feed's scrolls.rule_key: the key of the index it reads (rule.server.ts, ruleKeyOf). Every rule
 * has one since migration 0040 (until then `''` for a rule of everything). */
export const indexKeyOf = (rule: FeedRule): string => ruleKeyOf(rule);

// ---------------------------------------------------------------------------------------------
// Positions in a feed's order

/** Where an echo stands in a feed: (rank, id), rank its like count in a most-liked feed, else 0. */
export type Position = { rank: number; id: string };
/** How far an index reaches: all of its rule's matches, or every match up to its frontier
 * `floor`. A ready index that is neither (an older build's "dense" index, kept empty; the repair
 * pass builds it again) reaches nowhere: its pages come from the engine. */
export type IndexReach = { complete: boolean; floor: Position | null; near?: Position | null };

export const descending = (rule: FeedRule) => rule.sortBy !== "oldestFirst";
/** Above every echo of the feed: where its first page starts. */
export const topOf = (rule: FeedRule): Position => (descending(rule) ? { rank: Number.MAX_SAFE_INTEGER, id: "~" } : { rank: 0, id: "" });
/** A page's starting point (its cursor) as a position. */
export const positionOf = (rule: FeedRule, seek: Seek): Position =>
  seek ? { rank: rule.sortBy === "mostLiked" ? (seek.likes ?? 0) : 0, id: seek.id } : topOf(rule);
/** Whether `a` comes before `b` in the feed. */
export function before(rule: FeedRule, a: Position, b: Position): boolean {
  if (!descending(rule)) return a.id < b.id;
  return a.rank !== b.rank ? a.rank > b.rank : a.id > b.id;
}
/** Whether the index holds every match after `position` for at least one entry: a page from there can be read from it. */
export const reaches = (rule: FeedRule, st: IndexReach, position: Position): boolean =>
  st.complete || (st.floor !== null && before(rule, position, st.floor));
/** The frontier as the feed_indexes row stores it. */
/** Keep where a repair walk stands (a `stats` row, written over): the replay's, the rank sweep's, the hints' walk. */
export const keepStat = (key: string, value: number): SQL =>
  sql`INSERT INTO stats (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;

export const reachOf = (row: { complete: boolean | number; floor: string | null; floorRank: number | null; near?: string | null; nearRank?: number | null }): IndexReach => ({
  complete: row.complete === true || row.complete === 1,
  floor: row.floor === null ? null : { rank: row.floorRank ?? 0, id: row.floor },
  // where a reader's page asks for the index to reach deeper (feed-index-extend.server.ts)
  near: row.near === null || row.near === undefined ? null : { rank: row.nearRank ?? 0, id: row.near },
});

/**
 * Feed indexes this isolate has seen built, by rule key, with how deep they reach: a hint, never
 * an answer (an index page is guarded in SQL by the index's own state). At most 1,000.
 */
const builtIndexes = boundedHints<string, IndexReach>(1000);
export const rememberIndex = (ruleKey: string, st: IndexReach) => builtIndexes.set(ruleKey, st);
export const knownIndex = (ruleKey: string) => builtIndexes.get(ruleKey);
export const forgetIndex = (ruleKey: string) => builtIndexes.delete(ruleKey);

/**
 * The built index of a scroll's rule (one scroll row, one index row; none when its rule has no
 * ready index), read beside a lookup of the scroll so that the page after it, in the next round
 * trip, is read from the index even in an isolate that never saw the feed (`learnIndexes`).
 */
export const scrollIndexState = (scrollId: string) =>
  select(
    {
      ruleKey: sql<string>`fi.rule_key`,
      complete: sql<number>`fi.complete`,
      floor: sql<string | null>`fi.floor`,
      floorRank: sql<number | null>`fi.floor_rank`,
      near: sql<string | null>`fi.near`,
      nearRank: sql<number | null>`fi.near_rank`,
    },
    sql`FROM scrolls s JOIN feed_indexes fi ON fi.rule_key = s.rule_key WHERE s.id = ${scrollId} AND fi.state = 'ready'`,
  );
export const learnIndexes = (rows: { ruleKey: string; complete: number; floor: string | null; floorRank: number | null; near: string | null; nearRank: number | null }[]) =>
  rows.forEach((row) => rememberIndex(row.ruleKey, reachOf(row)));

/** The time window of a most-liked rule: its matches are at most this old. */
export const windowMs = (rule: FeedRule) => (rule.sortBy === "mostLiked" && rule.sortTimeRange !== "allTime" ? TIME_RANGE_MS[rule.sortTimeRange] : null);

/**
 * What a new echo must carry for the rule to possibly match it: its author when the rule names
 * authors, else one of its included tags (any-of, less the excluded ones) or the first of them
 * (all-of: a match carries every one); a rule with neither may match any echo (`*`).
 * A most-liked rule's terms start with `l:`: a like reaches only the indexes ordered by likes.
 */
export function ruleTerms(rule: FeedRule): string[] {
  const prefix = rule.sortBy === "mostLiked" ? "l:" : "";
  if (rule.authors.length > 0) return rule.authors.map((a) => `${prefix}a:${a}`);
  const tags = canonicalRule(rule).includedTags;
  if (tags.length === 0) return [`${prefix}*`];
  if (rule.tagMatchType === "all") return tags.slice(0, 1).map((t) => `${prefix}t:${t}`);
  return tags.filter((t) => !rule.excludedTags.includes(t)).map((t) => `${prefix}t:${t}`);
}


/**
 * The statements that give a rule its index (when it has none) and register its terms, for the
 * batch that saves the rule; `within` is that batch's rate-limit guard (a refused save writes
 * nothing). The backfill is sent after the batch committed (`startBackfill`).
 */
export function indexStatements(rule: FeedRule, within: SQL, now = Date.now()): SQL[] {
  const key = ruleKeyOf(rule);
  return [
    // the cap written (the column's default, 500, is an older build's)
    sql`INSERT INTO feed_indexes (rule_key, state, cap, created_at, updated_at)
        SELECT ${key}, 'building', ${INDEX_CAP}, ${now}, ${now} WHERE ${within} ON CONFLICT (rule_key) DO NOTHING`,
    sql`INSERT OR IGNORE INTO feed_rule_terms (term, index_id)
        SELECT j.value, (SELECT id FROM feed_indexes WHERE rule_key = ${key}) FROM json_each(${JSON.stringify(ruleTerms(rule))}) j
        WHERE ${within}`,
  ];
}

/** After the rule's batch committed: build its index in the background (a ready one is left as it is). */
export function startBackfill(app: Pick<AppContext, "env" | "ctx">, rule: FeedRule): void {
  sendChanges(app, [{ type: "backfill", ruleKey: ruleKeyOf(rule), cursor: null }]);
}

/** An index entry to write: (index, rank, echo). */
export type Entry = [number, number, string];

/** Entries for echos that still exist and are not in that index yet (a repeat writes nothing);
 * for a viewer index (decision 033), only echos that viewer has not liked (`unlikedBy`: a
 * hide-liked one) or does not hide for good (`seenBy`: a hiding one) — now, as the statement runs:
 * a like message that comes later takes it out again, a block or mute rebuilds the index. */
export function insertEntries(entries: Entry[], unlikedBy: string | null = null, seenBy: string | null = null): SQL {
  // (the entry carries its echo's author, read from the row this statement reads anyway: decision 026)
  if (seenBy !== null && !isId(seenBy)) throw new Error("feed index: bad viewer id");
  // (both for a hider's index of a hide-liked rule: decision 033, "Hiders of hide-liked feeds")
  const unliked = sql`${unlikedBy !== null ? sql`AND NOT EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = e.id AND l.user_id = ${unlikedBy})` : sql``} ${
    seenBy !== null ? sql`AND ${sql.raw(echoSeenForGoodText(lit(seenBy), "e"))}` : sql``
  }`;
  return sql`INSERT OR IGNORE INTO feed_index_entries (index_id, rank, echo_id, author_id)
      SELECT json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), e.id, e.author_id FROM json_each(${JSON.stringify(entries)}) j
      CROSS JOIN echos e ON e.id = json_extract(j.value, '$[2]')
      WHERE NOT EXISTS (SELECT 1 FROM feed_index_entries x WHERE x.echo_id = json_extract(j.value, '$[2]') AND x.index_id = json_extract(j.value, '$[0]')) ${unliked}`;
}

/** An echo's entry in an index, whatever its rank. */
export function deleteEntries(pairs: [number, string][]): SQL {
  return sql`DELETE FROM feed_index_entries WHERE (echo_id, index_id) IN
      (SELECT json_extract(value, '$[1]'), json_extract(value, '$[0]') FROM json_each(${JSON.stringify(pairs)}))`;
}

/** The entries after a position in the feed's order (SQL over `feed_index_entries`, aliased `alias`). */
export function afterPosition(rule: FeedRule, at: Position, alias = "feed_index_entries"): SQL {
  const rank = sql.raw(`${alias}.rank`);
  const echo = sql.raw(`${alias}.echo_id`);
  // oldest first: every rank is 0, and the tuple lets SQLite seek the primary key past it
  return descending(rule) ? sql`(${rank}, ${echo}) < (${at.rank}, ${at.id})` : sql`(${rank}, ${echo}) > (0, ${at.id})`;
}
/** Whether the index row `alias` reaches past `at` (holds an entry after it up to its frontier), in SQL. */
export const reachesSql = (rule: FeedRule, at: Position, alias: string): SQL =>
  descending(rule) ? sql`(${sql.raw(`${alias}.floor_rank, ${alias}.floor`)}) < (${at.rank}, ${at.id})` : sql`${sql.raw(`${alias}.floor`)} > ${at.id}`;
export const orderSql = (rule: FeedRule, alias = "feed_index_entries") =>
  sql.raw(descending(rule) ? `${alias}.rank DESC, ${alias}.echo_id DESC` : `${alias}.rank ASC, ${alias}.echo_id ASC`);

/**
 * Entries before an incomplete index's frontier where its near marker stands (decision 020,
 * "Deeper on demand"): a reader's page past it asks for another slice, 100 pages of 20 before
 * the frontier — the slice lands long before a reader paging on gets there. At most half the
 * index (a small test cap).
 */
export const EXTEND_AHEAD = 2000;
export const aheadOf = (cap: number) => Math.max(1, Math.min(EXTEND_AHEAD, Math.floor(cap / 2)));

/**
 * The statements that put an index's near marker at the entry `aheadOf(cap)` before its frontier
 * `floor` (none when it is complete: no marker). They read that many entries: the consumer's and
 * the repair pass's cost, never a page's.
 */
export function nearStatements(rule: FeedRule, id: number, floor: Position | null, cap: number): SQL[] {
  const clear = sql`UPDATE feed_indexes SET near = NULL, near_rank = NULL WHERE id = ${id}`;
  if (!floor) return [clear];
  const atOrBefore = descending(rule) ? sql`(x.rank, x.echo_id) >= (${floor.rank}, ${floor.id})` : sql`x.echo_id <= ${floor.id}`;
  const backwards = orderSql({ ...rule, sortBy: descending(rule) ? "oldestFirst" : "newestFirst" }, "x");
  return [
    clear,
    sql`UPDATE feed_indexes SET near = n.echo_id, near_rank = n.rank
        FROM (SELECT x.echo_id, x.rank FROM feed_index_entries x WHERE x.index_id = ${id} AND ${atOrBefore} ORDER BY ${backwards} LIMIT 1 OFFSET ${aheadOf(cap)}) n
        WHERE feed_indexes.id = ${id}`,
  ];
}
