// The feed rules engine: a stored rule → one SQL statement over current data (spec §3, product
// decisions "Feed scrolls"). feed-rules.reference.ts says the same thing over arrays; a property
// test holds the two equal. Order is total: id (= creation time, no ties) or likes then id.
// Its plan (the streams, their SQL parts, the window) is feed-streams.server.ts; this file is the
// page statement around it, its hydration and guards, and the reading of a page's rows.
// (Over 300 lines: the head, the scans past a frontier and the index's match query are built from
// the same private pieces — the hydration, `shownTo`, the page body, the window's row sums — which
// one file keeps unexported; issues 27 and 32 each added a path.)
import { idFloor, isId } from "../shared/index";
import type { Placeholder } from "drizzle-orm";
import { authorVisible, moderationVisible, wordsVisible, echoVisibleProbeText, entryVisibleText, mutesWordsText, viewerFiltersText, preparedAround, select, sql, tables, type RowOf, type Select, type SQL } from "../shared/index.server";
import { echoColumns } from "../echo/index.server";
import { RULE_FIELDS, storedRule, type RuleField } from "./rule.server";
import { idBounds, int, lit, MAX_COMPOUND, namedHiddenText, NOBODY, orderBy, provablyEmpty, streamPart, streams, testsOnEchoRow, windowSize, type Seek } from "./feed-streams.server";
import type { FeedRule } from "./schema";

// the plan's names the module's other files read from the engine
export { CANDIDATE_ROWS, idBounds, namedHiddenText, NOBODY, pageCandidateRows, provablyEmpty, streamPart, streams, testsOnEchoRow, windowSize, type Seek } from "./feed-streams.server";

/** A row of a page statement: a hydrated echo, whether it matches the rule (`feed_ok`) and its
 * place in the window (`feed_n`); the window's last entry comes back even when it does not match,
 * as the frontier the next page starts after (`feed_n` = FRONTIER_N). */
const pageColumns = (viewerId: string | Placeholder) => ({
  ...echoColumns(viewerId, "feeds"),
  feedOk: sql<number>`p.ok`,
  feedN: sql<number>`p.n`,
});
export type FeedPageRow = RowOf<ReturnType<typeof pageColumns>>;

/** The page's echos, hydrated around the engine's statement: all but that statement is rendered once.
 * CROSS JOIN keeps the page the outer loop: a compound page (a probed scan's parts) is not
 * flattened, and SQLite then chose to scan every echo and probe the page (938 rows for a preview). */
const hydrated = preparedAround(["viewerId", "limit"], (v, page) =>
  select(pageColumns(v.viewerId), sql`FROM (${page}) p CROSS JOIN echos e ON e.id = p.id JOIN users u ON u.id = e.author_id WHERE ${shownTo(v.viewerId)} LIMIT ${v.limit}`),
);

/**
 * What a viewer does not see of a page's candidate, tested on the echo row its hydration reads
 * anyway (decision 026, "Full pages for heavy hiders"): a probed scan's candidates come here
 * untested but for their author, so an echo that shows reads its row once, not twice (probe and
 * hydration). Only a plain head's rows (`n` 0) are tested here: a frontier (`ok` 0) passes, and
 * so does a numbered window's row (`n` ≥ 1: the statement tested it, and its count of matches
 * must stay the page's); no viewer (web feeds, the backfill) is tested as before, in the streams.
 */
const shownTo = (viewerId: Placeholder) =>
  sql`(p.ok = 0 OR p.n <> 0 OR ${viewerId} = ${NOBODY} OR (${authorVisible(viewerId, "e.author_id")} AND ${moderationVisible(viewerId, "e.author_id", "e.id", "public")} AND ${wordsVisible(viewerId, "feeds")}))`;

const sc = tables.scrolls;

/**
 * The same page, read only while the scroll `scrollId` still holds the rule it was built from and
 * the viewer may see it: a condition with no column of the page's tables, which SQLite tests once,
 * before it reads anything. For a page sent before the scroll's row is read (scrollEchos): when
 * the condition fails, the page costs the one scroll row it looked at.
 */
const hydratedWhile = preparedAround(["viewerId", "limit", "scrollId", ...RULE_FIELDS], (v, page) =>
  select(pageColumns(v.viewerId), sql`FROM (${page}) p CROSS JOIN echos e ON e.id = p.id JOIN users u ON u.id = e.author_id WHERE ${scrollHolds(v)} AND ${shownTo(v.viewerId)} LIMIT ${v.limit}`),
);

/**
 * The guard of hydratedWhile, and of an index page read from a remembered rule (pages.server.ts):
 * the scroll still holds the rule, and the viewer may see it. Its values are placeholders in the
 * prepared statement, bound values elsewhere (`holdsRule`).
 */
// (`(EXISTS …) = 1`, not a bare EXISTS: SQLite turns a bare EXISTS term of a join's WHERE into a
// semi-join inside the page's loop, one scroll row read per hydrated row — 20 rows a page, which
// took a hide-liked engine page to 206; compared, it stays a test made once before any loop)
const scrollHolds = (v: Record<"viewerId" | "scrollId" | RuleField, unknown>) =>
  sql`(EXISTS (SELECT 1 FROM scrolls WHERE ${sc.id} = ${v.scrollId} AND ${sc.type} = 'feed'
        AND (${sc.isPrivate} = 0 OR ${sc.creatorId} = ${v.viewerId})
        AND ${sc.tagMatchType} = ${v.tagMatchType} AND json(${sc.includedTags}) = json(${v.includedTags})
        AND json(${sc.excludedTags}) = json(${v.excludedTags}) AND json(${sc.authors}) = json(${v.authors})
        AND ${sc.sortBy} = ${v.sortBy} AND ${sc.sortTimeRange} = ${v.sortTimeRange}
        AND ${sc.excludeLikedEchos} = ${v.excludeLikedEchos} AND ${sc.startDate} IS ${v.startDate} AND ${sc.endDate} IS ${v.endDate}
        AND ${sc.replies} = ${v.replies})) = 1`;

/** `scrollHolds` with bound values: the scroll `scrollId` still holds `rule` and `viewerId` may see it. */
export const holdsRule = (scrollId: string, viewerId: string, rule: FeedRule): SQL => scrollHolds({ viewerId, scrollId, ...storedRule(rule) });

/**
 * The streams' parts as one compound SELECT of (id, lk, ok). D1 allows 5 terms in a compound
 * SELECT: more streams go in groups of 5, each a subquery that SQLite flattens back into one
 * merge of all the streams (plan: MERGE (UNION ALL) of every stream, no temporary B-tree), so a
 * cut over it bounds the entries of all of them. UNION ALL keeps that cut a count of entries
 * read: an echo two streams found comes twice, side by side, and feedPage keeps one.
 */
export function mergeParts(parts: { sql: string }[]): string {
  if (parts.length > MAX_COMPOUND * MAX_COMPOUND) throw new Error("feed engine: too many streams");
  const groups: string[] = [];
  for (let i = 0; i < parts.length; i += MAX_COMPOUND) groups.push(parts.slice(i, i + MAX_COMPOUND).map((p) => p.sql).join(" UNION ALL "));
  return groups.length === 1 ? groups[0]! : groups.map((g) => `SELECT id, lk, ok, au FROM (${g})`).join(" UNION ALL ");
}

/**
 * The page statement. The streams' entries are merged in feed order (docs/decisions/008) and
 * cut at `window` entries. The page is the first limit+1 matches in the window (after `offset`
 * matches), plus the window's last entry when the window is full: a page that meets the end of
 * its window stops there, short or even empty, and the next one starts after that frontier.
 * A rule whose every entry matches (no test beyond what the index seeks) never stops short, so
 * its first pages by cursor keep the plain merge, which reads no more than the page.
 * With `whileScroll`, the page is read only while that scroll holds `rule` (hydratedWhile).
 */
export function feedPageQuery(
  rule: FeedRule,
  viewerId: string,
  now: number,
  seek: Seek,
  limit: number,
  offset: number,
  window = windowSize(rule),
  whileScroll: string | null = null,
  hiding: Hiding = false,
  step = FEED_STEP,
): Select<FeedPageRow> {
  if (!isId(viewerId)) throw new Error("feed engine: bad viewer id");
  // no ORDER BY: sorting the page would read each of its rows again; feedPage puts them in order
  const page = pageBody(rule, viewerId, now, seek, limit, offset, window, viewerId === NOBODY ? false : hiding, step);
  return whileScroll === null ? hydrated({ viewerId, limit: limit + 1 }, page) : hydratedWhile({ viewerId, limit: limit + 1, scrollId: whileScroll, ...storedRule(rule) }, page);
}

/**
 * What the caller believes of the viewer (feed-viewer.server.ts, a hint read in an earlier batch):
 * nothing (false), that anything may hide an echo from them (true: a page from a cursor is then
 * the scan alone, whatever the rule, and an author stream seeks only an author they see), or that
 * and besides that the page is wanted only if they hide an author the rule names
 * ("if-named-hidden": every stream reads nothing otherwise — the index's page, sent beside it, is
 * read in that case instead; pages.server.ts).
 */
export type Hiding = boolean | "if-named-hidden";

/** The engine's page statement before hydration: rows of (id, lk, ok, n). */
function pageBody(rule: FeedRule, viewerId: string, now: number, seek: Seek, limit: number, offset: number, window: number, hidingAs: Hiding = false, scanStep = FEED_STEP): string {
  // no rows, and nothing read (a rule that names no author has no named author hidden)
  if (provablyEmpty(rule, now) || (hidingAs === "if-named-hidden" && rule.authors.length === 0)) return "SELECT NULL AS id, 0 AS ok, 0 AS n WHERE 0";
  const hiding = hidingAs !== false;
  const gate = !hiding ? null : hidingAs === true ? "1" : namedHiddenText(rule, viewerId);
  const parts = streams(rule).map((s) => streamPart(rule, s, viewerId, now, seek, gate));
  const order = orderBy(rule, "id", "lk");
  const merged = mergeParts(parts);
  // a viewer whom anything may hide (their blocks and mutes, muted words, moderated accounts):
  // each entry that matches is tested on the entry (author, moderation) and, for a viewer who mutes
  // a word, probed once more on its echo row, inside the statement, so hidden echos are stepped
  // over within the bound below rather than leaving the page short after it
  const filters = viewerId === NOBODY ? "0" : viewerFiltersText(lit(viewerId));
  const probe = (id: string) => echoVisibleProbeText(lit(viewerId), id, "feeds");
  // an author the viewer hides, a limited or suspended one (public lists, decision 029) and a
  // hidden echo are stepped over on the entry (its `au`, migration 0035, and its id): no probe,
  // 1 row (issue 32: a limited author's entries went on to the hydration, which dropped them
  // after the scan's cut — a plain reader's page 12 of 20 with one account 60 % of a tag limited)
  const seen = (au: string, id: string) => (viewerId === NOBODY ? "1" : entryVisibleText(lit(viewerId), au, id));
  // what only the echo row tells (its words): probed only for a viewer who mutes any word — and
  // for an entry without its author (a link the migration found no echo for: '' passes `seen`)
  const words = viewerId === NOBODY ? "0" : mutesWordsText(lit(viewerId));
  const tested = parts.some((p) => p.tested);
  const hidingScan = offset === 0 && hiding ? probedScan(rule, window, limit, hidingGates(rule, gate), scanStep) : null;
  if (hidingScan?.fits) {
    // (its kept entries are each tested on the entry, a hidden echo too: the streams need not test it)
    const scanned = mergeParts(streams(rule).map((s) => streamPart(rule, s, viewerId, now, seek, gate, true)));
    // a viewer believed to hide anything, a page from a cursor: the scan alone (one copy of the
    // merge and the step's, no CASE between paths), for a rule with tests as for a plain head —
    // an entry the rule does not match (`ok`, tested on the entry as the window tests it) or by
    // an author the viewer hides (`au`) is left out on the entry; the rest as the plain head's
    // scan below. Where the window numbered each entry (2 rows) and probed it (1), an entry costs
    // its own rows: a one-tag rule with tests gave such a viewer 18 entries a screen (issue 32).
    // A window too small to hold the scan's step (a document's page of a rule with tests, 6 or
    // more streams) keeps the paths below, chosen in SQL
    const kept = `SELECT id, lk, 1 AS ok, 0 AS n FROM (SELECT id, lk FROM (${scanned} ORDER BY ${order} LIMIT ${int(hidingScan.entries)})
        WHERE ${seen("au", "id")}${tested ? " AND ok" : ""} LIMIT ${int(hidingScan.probed)})`;
    const step = `SELECT id, lk, 0 AS ok, ${FRONTIER_N} AS n FROM (${scanned} ORDER BY ${order} LIMIT 1 OFFSET ${int(scanStep - 1)})`;
    return `SELECT * FROM (${kept}) UNION ALL SELECT * FROM (${step}) LIMIT ${int(hidingScan.probed + 1)}`;
  }
  if (offset === 0 && !tested) {
    // every entry matches: the page is the merge's head — for a viewer whom nothing hides. For
    // one whom anything may, the first `scan` entries, probed, up to the page; a page short of
    // it read them all, and also reads the FEED_STEP-th entry: the next page starts after it or
    // after the page's last echo, whichever is later (as an index page of a hide-liked reader,
    // decision 020), so each page moves on, and none reads more than its scan. Of those entries,
    // an author the viewer hides is left out on the entry (1 row); at most `probed` others go on
    // to the hydration, which tests the rest on the echo row it reads (shownTo) and stops at the
    // page (decision 026, "Full pages for heavy hiders")
    const scan = probedScan(rule, window, limit);
    // (each part is gated by its LIMIT: a LIMIT of 0 reads nothing, however SQLite runs the part)
    const head = `SELECT id, lk, 1 AS ok, 0 AS n FROM (${merged} ORDER BY ${order} LIMIT CASE WHEN ${filters} THEN 0 ELSE ${int(limit + 1)} END)`;
    const kept = `SELECT id, lk, 1 AS ok, 0 AS n FROM (SELECT id, lk FROM (${merged} ORDER BY ${order} LIMIT CASE WHEN ${filters} THEN ${int(scan.entries)} ELSE 0 END)
        WHERE ${seen("au", "id")} LIMIT ${int(scan.probed)})`;
    const step = `SELECT id, lk, 0 AS ok, ${FRONTIER_N} AS n FROM (${merged} ORDER BY ${order} LIMIT CASE WHEN ${filters} THEN 1 ELSE 0 END OFFSET ${int(FEED_STEP - 1)})`;
    return `SELECT * FROM (${head}) UNION ALL SELECT * FROM (SELECT * FROM (${kept}) UNION ALL SELECT * FROM (${step}) LIMIT ${int(scan.probed + 1)})`;
  }
  // row_number/sum number the rows as they arrive (no sort), so the outer LIMIT stops the merge
  // once the page is full: a dense feed reads about a page of entries, not the window. A viewer
  // whom anything may hide has each entry's author and moderation tested on it (no row); one who
  // mutes a word has a smaller window (each entry's probe of its echo row for the words, one row)
  const w = `(CASE WHEN ${words} THEN ${int(windowOfProbed(rule, window))} ELSE ${int(window)} END)`;
  const numbered = `SELECT id, lk, ok, row_number() OVER w AS n, sum(ok) OVER w AS k FROM (SELECT m.id AS id, m.lk AS lk,
        m.ok AND (NOT ${filters} OR (${seen("m.au", "m.id")} AND ((NOT ${words} AND m.au <> '') OR ${probe("m.id")}))) AS ok
      FROM (${merged} ORDER BY ${order} LIMIT ${w}) m)
    WINDOW w AS (ROWS UNBOUNDED PRECEDING)`;
  const wanted = `ok AND k > ${int(offset)}`;
  return `SELECT id, lk, ${wanted} AS ok, CASE WHEN n = ${w} THEN ${FRONTIER_N} ELSE n END AS n FROM (${numbered}) WHERE (${wanted}) OR n = ${w} LIMIT ${int(limit + 1)}`;
}

/** Whether the engine tests its candidates for this rule and viewer (else every entry matches, and
 * its page is the merge's head: full, reading no more than the page). */
export const engineTests = (rule: FeedRule, viewerId: string, now: number): boolean =>
  !provablyEmpty(rule, now) && streams(rule).some((s) => streamPart(rule, s, viewerId, now, null).tested);

/** A plain scan's row: an entry of the merged streams, whether it matches (copies and misses: 0). */
const scanColumns = { id: sql<string>`p.id`, likesCount: sql<number>`p.lk`, feedOk: sql<number>`p.ok`, feedN: sql<number>`0` };
export type FeedScanRow = RowOf<typeof scanColumns>;
/** Rows a plain scan's entry costs (no numbering): the entry, the second merge level (6–25
 * streams), the hide-liked probe, the echo row of an echos-table stream whose tags are tested. */
export const scanEntryRows = (rule: FeedRule): number =>
  1 + Number(streams(rule).length > MAX_COMPOUND) + Number(rule.excludeLikedEchos) + Number(testsOnEchoRow(rule));
/**
 * The first `entries` entries of the rule's merged streams after `seek`, ids only, each marked
 * with whether it matches (decision 020, "Past the frontier, full"): no numbering and no
 * hydration, so an entry costs scanEntryRows (2 for 6–25 tag streams, where a numbered window
 * costs 4). The page's echos are hydrated by id in a second round trip (feed-past-frontier).
 * An author the viewer hides, or moderation, is a miss here (on the entry); a muted word is tested
 * where it is hydrated. Read only while `guard` holds (a condition SQLite tests once).
 */
export function feedScanQuery(rule: FeedRule, viewerId: string, now: number, seek: Seek, entries: number, guard: SQL): Select<FeedScanRow> {
  if (provablyEmpty(rule, now)) return select(scanColumns, sql`FROM (SELECT NULL AS id, 0 AS lk, 0 AS ok) p WHERE 0`);
  const { scan, seen } = plainScan(rule, viewerId, now, seek, entries);
  return select(scanColumns, sql`FROM (${sql.raw(`SELECT id, lk, ok AND ${seen} AS ok FROM (${scan})`)}) p WHERE ${guard}`);
}

/** The first `entries` entries of the merged streams after `seek` in feed order (no numbering),
 * and the test that the viewer sees an entry's author (on the entry: no row). */
function plainScan(rule: FeedRule, viewerId: string, now: number, seek: Seek, entries: number): { scan: string; seen: string } {
  if (!isId(viewerId)) throw new Error("feed engine: bad viewer id");
  const parts = streams(rule).map((s) => streamPart(rule, s, viewerId, now, seek));
  const seen = viewerId === NOBODY ? "1" : `(NOT ${viewerFiltersText(lit(viewerId))} OR ${entryVisibleText(lit(viewerId), "au", "id")})`;
  return { scan: `${mergeParts(parts)} ORDER BY ${orderBy(rule, "id", "lk")} LIMIT ${int(entries)}`, seen };
}

/**
 * The first `limit` + 1 matches among the next `entries` entries of the merged streams, hydrated
 * in the same statement: no numbering, so an entry costs scanEntryRows (the page that crosses an
 * index's frontier, whose second round trip is its last: pages.server.ts). Its end is not read:
 * a page short of limit + 1 matches goes on after its last echo (or from where it started when
 * it found none), never ending the feed. An author the viewer hides or moderation hides is a
 * miss on the entry; PROBE_SPARE more candidates go to the hydration, which tests the rest (shownTo).
 */
export function feedKeptQuery(rule: FeedRule, viewerId: string, now: number, seek: Seek, limit: number, entries: number, whileScroll: string | null): Select<FeedPageRow> {
  const { scan, seen } = plainScan(rule, viewerId, now, seek, entries);
  const page = provablyEmpty(rule, now)
    ? "SELECT NULL AS id, 0 AS ok, 0 AS n WHERE 0"
    : `SELECT id, lk, 1 AS ok, 0 AS n FROM (SELECT id, lk FROM (${scan}) WHERE ok AND ${seen} LIMIT ${int(limit + 1 + PROBE_SPARE)})`;
  return whileScroll === null
    ? hydrated({ viewerId, limit: limit + 1 }, page)
    : hydratedWhile({ viewerId, limit: limit + 1, scrollId: whileScroll, ...storedRule(rule) }, page);
}

/** The echos `ids` (in the feed's order) hydrated, the first `limit` the viewer sees (shownTo). */
export function hydrateIds(viewerId: string, ids: string[], limit: number): Select<FeedPageRow> {
  if (!ids.every(isId)) throw new Error("feed engine: bad id");
  const page = `SELECT j.value AS id, 0 AS lk, 1 AS ok, 0 AS n FROM json_each(${lit(JSON.stringify(ids))}) j`;
  return hydrated({ viewerId, limit }, page);
}

const matchColumns = { id: sql<string>`p.id`, likesCount: sql<number>`e.likes_count`, feedOk: sql<number>`p.ok`, feedN: sql<number>`p.n` };
/** The engine's page for no viewer with only what an index entry needs (its echo's id and like
 * count): the feed index's backfill. A hydrated row reads its author, the viewer's like and
 * repost, a quote's echo and muted words — rows a backfill step of up to 1,000 matches paid for
 * and threw away. */
const matched = preparedAround([], (_v, page) => select(matchColumns, sql`FROM (${page}) p JOIN echos e ON e.id = p.id`));
export type FeedMatchRow = RowOf<typeof matchColumns>;
export function feedMatchQuery(rule: FeedRule, viewerId: string, now: number, seek: Seek, limit: number, window: number): Select<FeedMatchRow> {
  if (!isId(viewerId)) throw new Error("feed engine: bad viewer id");
  return matched({}, pageBody(rule, viewerId, now, seek, limit, 0, window));
}

/** `feed_n` of a page's frontier row: the window's last entry, or a probed scan's FEED_STEP-th. */
export const FRONTIER_N = -1;
/** How far a short probed page moves on at least (its FEED_STEP-th entry costs as many rows). */
export const FEED_STEP = 12;
/**
 * The window's candidate rows back from its size (`window` was sized for `windowSize`'s rows per
 * entry), then sized again for a probed entry: one row more each.
 */
const rowsOfWindow = (rule: FeedRule, window: number): number => {
  const list = streams(rule);
  const perEntry = 3 + Number(list.length > MAX_COMPOUND) + Number(rule.excludeLikedEchos) + Number(testsOnEchoRow(rule));
  return window * perEntry + list.length;
};
const windowOfProbed = (rule: FeedRule, window: number): number => windowSize(rule, rowsOfWindow(rule, window), true);
/** Entries a plain head probes beyond its page's look-ahead: echos a muted word may hide (an
 * author the viewer hides, moderation, a hidden echo: left out on the entry). */
const PROBE_SPARE = 3;
/**
 * A plain head's scan for a viewer whom anything may hide: each entry costs its index entry (one
 * more past MAX_COMPOUND streams; no numbering), a short page its `step`-th entry's (FEED_STEP; a
 * filling statement's 1st, as its page has moved on already: decision 034). An entry by an
 * author the viewer hides, a limited or suspended one, or of a hidden echo costs its entry alone
 * (its author is on it: migration 0035); of the others, up to `probed` go on to the hydration,
 * which reads their echo row — the page's rows for those it shows, 1 row more for each it does
 * not (a muted word): at most
 * PROBE_SPARE more than the page's look-ahead. A screen's 62 candidate rows: 59 entries (every
 * entry probed, 2 rows each, was 30).
 */
export const probedScan = (rule: FeedRule, window: number, limit: number, gates = 0, step = FEED_STEP): { entries: number; probed: number; fits: boolean } => {
  const perEntry = probedEntryRows(rule);
  const rows = rowsOfWindow(rule, window) - streams(rule).length - gates - step * perEntry;
  const entries = Math.floor((rows - PROBE_SPARE) / perEntry);
  return { entries: Math.max(step, entries), probed: limit + 1 + PROBE_SPARE, fits: entries >= step };
};
/** Rows an entry of that scan costs: its index entry, one more past MAX_COMPOUND streams, and for
 * a rule with tests its hide-liked probe and an echos-table stream's row, one row each. */
export const probedEntryRows = (rule: FeedRule): number =>
  1 + Number(streams(rule).length > MAX_COMPOUND) + Number(rule.excludeLikedEchos) + Number(testsOnEchoRow(rule));
/** Rows the author streams' gates read for a viewer believed to hide anyone: the set, once a stream (twice under a condition). */
const hidingGates = (rule: FeedRule, gate: string | null): number => (gate === null || rule.authors.length === 0 ? 0 : streams(rule).length * (gate === "1" ? 1 : 2));

/** What a page statement's rows mean: the page's echos (at most `limit`, one row per echo),
 * and where the next page starts when there may be more — after the page's last echo, or at
 * the window's frontier when the window filled first (then the page may be short, even empty). */
export function feedPage<R extends FeedMatchRow = FeedPageRow>(
  rule: FeedRule,
  unordered: R[],
  limit: number,
  now?: number,
): { rows: R[]; hasMore: boolean; after: R | null } {
  const byId = (a: R, b: R) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const rows = [...unordered].sort(
    rule.sortBy === "oldestFirst" ? byId : rule.sortBy === "mostLiked" ? (a, b) => b.likesCount - a.likesCount || byId(b, a) : (a, b) => byId(b, a),
  );
  const matches: R[] = [];
  for (const r of rows) if (r.feedOk && matches[matches.length - 1]?.id !== r.id) matches.push(r);
  const okRows = rows.filter((r) => r.feedOk).length;
  if (okRows > limit) {
    // the page filled: every match up to its last row is known
    const page = matches.slice(0, limit);
    return { rows: page, hasMore: true, after: page[page.length - 1] ?? null };
  }
  // the frontier: the window's last entry (after every match), or a probed scan's FEED_STEP-th
  // entry, which may come before the page's last echo: the next page starts after the later one
  const frontier = rows.find((r) => r.feedN === FRONTIER_N) ?? null;
  if (frontier && now !== undefined && pastTheEnd(rule, frontier, now)) return { rows: matches, hasMore: false, after: null };
  const last = matches[matches.length - 1];
  const after = frontier && last && rows.indexOf(frontier) < rows.indexOf(last) ? last : frontier;
  return { rows: matches, hasMore: frontier !== null, after };
}

/**
 * Most liked, with a start (its time window or its dates): past an entry with no like that is
 * older than the start, every entry is older still and has no like either (the order is likes,
 * then newest first), so nothing more can match. Without this a 1-year feed past its index's
 * frontier answered empty pages with more to come for every older echo of its tags, and its
 * backfill walked them all.
 */
function pastTheEnd(rule: FeedRule, at: FeedMatchRow, now: number): boolean {
  if (rule.sortBy !== "mostLiked" || at.likesCount !== 0) return false;
  const { from } = idBounds(rule, now);
  return from !== null && at.id < idFloor(from);
}
