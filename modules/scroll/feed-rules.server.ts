// The feed rules engine: a stored rule → one SQL statement over current data (spec §3, product
// decisions "Feed scrolls"). feed-rules.reference.ts says the same thing over arrays; a property
// test holds the two equal. Order is total: id (= creation time, no ties) or likes then id.
//
// Plan (docs/decisions/008-feed-engine.md): the rows come from index streams that are already in
// the feed's order — one stream per included tag (any-of), the rarest included tag (all-of), one
// stream per author, or the echos table when the rule names neither. Several streams are joined
// with a compound `UNION … ORDER BY … LIMIT`, which SQLite runs as a merge of ordered co-routines:
// it stops once the page is full, so a page reads about (page + streams + rejected candidates)
// rows whatever the depth. Tag tests on a candidate look inside its own JSON array of validated
// tag names (`echos.tags`, copied onto each tag link and covered by the tag indexes) instead of
// probing other rows, so a rejected candidate costs the one index entry that found it.
//
// Rule values are written into the statement as SQL literals (escaped by `lit`), not bound: one
// statement may repeat a value in 25 streams, and D1 binds at most 100 parameters. Every value is
// also validated where the rule is saved (tags, ids) or read (cursor).
import { candidateRowsFor, DEFAULT_LIMIT, ECHO_ROWS, idCeil, idFloor, isId, LIST_MAX_LIMIT } from "../shared/index";
import type { Placeholder } from "drizzle-orm";
import { authorVisible, moderationVisible, wordsVisible, authorVisibleText, deletedAccountsVisibleText, moderationVisibleText, moderationEchoVisibleText, echoVisibleProbeText, viewerFiltersText, preparedAround, select, sql, tables, type RowOf, type Select, type SQL } from "../shared/index.server";
import { echoColumns } from "../echo/index.server";
import { RULE_FIELDS, storedRule, type RuleField } from "./rule.server";
import { TIME_RANGE_MS, type FeedRule } from "./schema";

export type Seek = { id: string; likes?: number } | null;

/** The viewer of the canonical rule (the feed index's backfill and repair): hides
 * nothing, so the index holds every match and its pages test each reader's own. */
export const NOBODY = "0".repeat(26);

/** D1's limit on the terms of one compound SELECT; two levels serve the 25 tags or authors a
 * rule may name (MAX_RULE_TAGS, MAX_RULE_AUTHORS). */
const MAX_COMPOUND = 5;

/** A string as an SQL literal: quotes doubled, so no value can end the literal. */
const lit = (value: string) => `'${value.replaceAll("'", "''")}'`;
const int = (value: number) => {
  if (!Number.isSafeInteger(value)) throw new Error("feed engine: not an integer");
  return String(value);
};
/** Whether a candidate carries a tag: its JSON array of tags (`tags`, on the echo row or copied
 * on the tag link) holds the name in double quotes. */
const hasTagIn = (tags: string, tag: string) => `instr(${tags}, ${lit(JSON.stringify(tag))}) > 0`;

/** One ordered stream of candidates: where it reads, the columns that order it, where the
 * candidate's tags are (a tag stream reads only its covering index) and, for a rule without
 * replies, the test that the candidate is not one (null: the stream holds none). */
// `author`: the entry's author, read with it (an echos row, or a tag link's copy: migration 0035)
type Stream = { from: string; key: string[]; id: string; likes: string; tags: string; author: string; notReply: string | null; earlier?: string[] };

export function streams(rule: FeedRule): Stream[] {
  const byLikes = rule.sortBy === "mostLiked";
  // replies (decision 024): off unless the rule says so; a reply stays one, so the test never moves
  const noReplies = rule.replies !== true;
  if (rule.authors.length > 0) {
    // an author's echos: (author_id, id) or (author_id, likes_count, id); "not a reply" is
    // tested on the echo row (its tags are tested there too)
    const index = byLikes ? "echos_author_likes" : "echos_author_id";
    return rule.authors.map((a) => ({
      from: `echos e INDEXED BY ${index}`,
      key: [`e.author_id = ${lit(a)}`],
      id: "e.id",
      likes: "e.likes_count",
      tags: "e.tags",
      author: "e.author_id",
      notReply: noReplies ? "e.parent_id IS NULL" : null,
    }));
  }
  const tagStream = (tagExpr: string): Stream => ({
    // covering indexes: (tag, echo_id, tags) and (tag, likes_count, echo_id, tags); without
    // replies their partial copies of top-level echos, so replies cost no read and no test
    from: `echo_tags d INDEXED BY ${noReplies ? (byLikes ? "echo_tags_top_likes" : "echo_tags_top_echo") : byLikes ? "echo_tags_tag_likes_tags" : "echo_tags_tag_echo"}`,
    key: [`d.tag = ${tagExpr}`, ...(noReplies ? ["d.reply = 0"] : [])],
    id: "d.echo_id",
    likes: "d.likes_count",
    tags: "d.tags",
    author: "d.author_id",
    notReply: null,
  });
  if (rule.includedTags.length > 0 && rule.tagMatchType === "all") {
    // the rarest included tag drives (tag counters are exact; a tag no echo carries counts 0,
    // so its empty stream drives); the others are tested on the row
    const names = rule.includedTags.map((t) => `(${lit(t)})`).join(", ");
    return [
      tagStream(`(SELECT v.column1 FROM (VALUES ${names}) v LEFT JOIN tags t ON t.name = v.column1 ORDER BY coalesce(t.echo_count, 0), v.column1 LIMIT 1)`),
    ];
  }
  // any-of: a tag that is also excluded cannot contribute. An echo that carries two of the tags is
  // in two streams, side by side in the merge: only its first stream's copy is a match (`earlier`),
  // the other a miss — counted as both (an any-of-10-tags feed answered 16–19 echos a page past
  // its index's frontier: each copy cost the page an echo)
  if (rule.includedTags.length > 0) {
    const contributing = rule.includedTags.filter((t) => !rule.excludedTags.includes(t));
    return contributing.map((t, i) => ({ ...tagStream(lit(t)), earlier: contributing.slice(0, i) }));
  }
  // no tag or author: without replies, the partial indexes of top-level echos (every entry matches)
  if (noReplies) {
    const index = byLikes ? "echos_top_likes" : "echos_top";
    return [{ from: `echos e INDEXED BY ${index}`, key: ["e.parent_id IS NULL"], id: "e.id", likes: "e.likes_count", tags: "e.tags", author: "e.author_id", notReply: null }];
  }
  return [{ from: byLikes ? "echos e INDEXED BY echos_likes" : "echos e", key: [], id: "e.id", likes: "e.likes_count", tags: "e.tags", author: "e.author_id", notReply: null }];
}

/** The bounds on id: the rule's dates and, for most-liked over a window, the window. */
export function idBounds(rule: FeedRule, now: number): { from: number | null; to: number | null } {
  let from = rule.startDate;
  if (rule.sortBy === "mostLiked" && rule.sortTimeRange !== "allTime") {
    const windowStart = now - TIME_RANGE_MS[rule.sortTimeRange];
    from = from === null ? windowStart : Math.max(from, windowStart);
  }
  return { from, to: rule.endDate };
}

/**
 * Whether the rule can match nothing, whatever the store holds: its dates (with the time window)
 * leave no time, or its included tags are all excluded (any-of) or one of them is (all-of).
 * Such a feed is answered without reading (docs/decisions/010-feed-budget-for-every-feed.md).
 */
export function provablyEmpty(rule: FeedRule, now: number): boolean {
  const { from, to } = idBounds(rule, now);
  if (from !== null && (from > now || (to !== null && from > to))) return true;
  const excluded = (t: string) => rule.excludedTags.includes(t);
  if (rule.includedTags.length === 0) return false;
  return rule.tagMatchType === "all" ? rule.includedTags.some(excluded) : rule.includedTags.every(excluded);
}

/** Tag conditions on a candidate (its stream's `tags`), beyond what the stream implies. */
function rowConditions(rule: FeedRule, s: Stream): string[] {
  const hasTag = (tag: string) => hasTagIn(s.tags, tag);
  const where: string[] = [];
  const authorDriven = rule.authors.length > 0;
  if (rule.includedTags.length > 0) {
    if (rule.tagMatchType === "all") where.push(...rule.includedTags.map(hasTag));
    else if (authorDriven) where.push(`(${rule.includedTags.map(hasTag).join(" OR ")})`);
  }
  where.push(...rule.excludedTags.map((t) => `NOT ${hasTag(t)}`));
  // (tested on the covering index's copy of the tags: no row more)
  where.push(...(s.earlier ?? []).map((t) => `NOT ${hasTag(t)}`));
  if (s.notReply !== null) where.push(s.notReply);
  return where;
}

/** Whether a candidate's tests read its echo row (an echos-table stream that tests anything):
 * one more row an entry. */
export const testsOnEchoRow = (rule: FeedRule): boolean => {
  const first = streams(rule)[0];
  return first !== undefined && first.tags === "e.tags" && rowConditions(rule, first).length > 0;
};

function orderBy(rule: FeedRule, id: string, likes: string): string {
  if (rule.sortBy === "oldestFirst") return `${id} ASC`;
  if (rule.sortBy === "mostLiked") return `${likes} DESC, ${id} DESC`;
  return `${id} DESC`;
}

/** Rows a screen's page (20) may spend on candidates (index entries in the window), whatever the
 * rule: the rest of the budget hydrates the page (5 rows an echo at worst: a quote the viewer
 * liked and reposted) and reads the scroll. 110 when an echo read 3 (decision 010); 75 since
 * reposts and quotes (decision 027, "Pages sized by rows per echo"). A larger page gets less
 * (pageCandidateRows). */
export const CANDIDATE_ROWS = candidateRowsFor(DEFAULT_LIMIT);
/**
 * The candidate rows of a page of `limit` echos: CANDIDATE_ROWS, less what an API page larger
 * than a screen's hydrates more (up to a scroll's largest page). A page larger still (a web
 * feed's 50, read as nobody: no like or repost probes) hydrates at most the window's matches.
 */
export const pageCandidateRows = (limit: number, candidateRows = CANDIDATE_ROWS): number =>
  Math.max(1, candidateRows - (Math.min(Math.max(limit, DEFAULT_LIMIT), LIST_MAX_LIMIT.scrollEchos) - DEFAULT_LIMIT) * ECHO_ROWS);

/** One stream's part of the merge: its entries in feed order, each marked with whether it
 * matches the rule. What the index range can seek (the stream's key, the cursor, and the id
 * bounds when the stream is in id order) bounds the scan; every other test only marks the entry,
 * so that a LIMIT over the merge counts entries read, not matches. */
export function streamPart(rule: FeedRule, s: Stream, viewerId: string, now: number, seek: Seek): { sql: string; tested: boolean } {
  const { from, to } = idBounds(rule, now);
  const seekable = [...s.key];
  const tests = rowConditions(rule, s);
  if (seek && !isId(seek.id)) throw new Error("feed engine: bad cursor id");
  let low = from === null ? null : `${s.id} >= ${lit(idFloor(from))}`;
  let high = to === null ? null : `${s.id} <= ${lit(idCeil(to))}`;
  if (rule.sortBy === "mostLiked") {
    // the likes-ordered index cannot seek by id: the dates only mark the entry
    tests.push(...[low, high].filter((b) => b !== null));
    if (seek) seekable.push(`(${s.likes}, ${s.id}) < (${int(seek.likes ?? 0)}, ${lit(seek.id)})`);
  } else {
    // the cursor replaces the date bound on its side when it is tighter: SQLite seeks one bound
    // per side, and testing the other on every entry would read the pages already served
    if (seek && rule.sortBy === "oldestFirst" && (from === null || seek.id >= idFloor(from))) low = `${s.id} > ${lit(seek.id)}`;
    if (seek && rule.sortBy === "newestFirst" && (to === null || seek.id <= idCeil(to))) high = `${s.id} < ${lit(seek.id)}`;
    seekable.push(...[low, high].filter((b) => b !== null));
  }
  if (rule.excludeLikedEchos) tests.push(`NOT EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = ${s.id} AND l.user_id = ${lit(viewerId)})`);
  // the authors the viewer does not see (issue 32, decision 026), moderation (decision 029) and
  // muted words (decision 028) are one probe of the echo row after the merge (feedPageQuery), for
  // a viewer whom anything may hide, bounded by the page's window or scan. Here only what costs
  // no read: a hidden echo (its id is at hand) leaves every stream; an author or echos-table
  // stream with tests also marks its hidden authors' entries as misses (the row is read for the
  // tests anyway), which spares their probes.
  seekable.push(viewerId === NOBODY ? moderationEchoVisibleText(s.id) : moderationEchoVisibleText(s.id, lit(viewerId)));
  // a deleted account's echos (decision 032) leave at once: a viewer's probe tests its author; for
  // no viewer (web feeds, the index's backfill) the author is tested here — read per entry only
  // while an account is being purged, free on an author stream (its row is at hand)
  if (viewerId === NOBODY) seekable.push(deletedAccountsVisibleText(s.tags === "e.tags" ? "e.author_id" : `(SELECT author_id FROM echos WHERE id = ${s.id})`));
  if (s.tags === "e.tags" && tests.length > 0 && viewerId !== NOBODY) {
    tests.push(`${authorVisibleText(lit(viewerId), "e.author_id")} AND ${moderationVisibleText(lit(viewerId), "e.author_id", s.id, "public")}`);
  }
  const ok = tests.length ? `(${tests.join(" AND ")})` : "1";
  // the like count only orders most-liked rules; elsewhere reading it would leave the index
  const lk = rule.sortBy === "mostLiked" ? s.likes : "0";
  return { sql: `SELECT ${s.id} AS id, ${lk} AS lk, ${ok} AS ok, ${s.author} AS au FROM ${s.from} WHERE ${seekable.join(" AND ") || "1"}`, tested: tests.length > 0 };
}

/**
 * The window: how many index entries, merged in feed order, one page may look at. Measured
 * per entry: 1 row for the index entry and 2 for numbering it (SQLite's window functions buffer
 * each row), 1 more for the second merge level (6–25 streams), for the hide-liked probe, and for
 * the echo row of an echos-table stream whose tags are tested. Besides: 1 look-ahead per
 * stream, and for all-of, choosing the rarest tag (its `tags` rows, sorted).
 */
export function windowSize(rule: FeedRule, candidateRows = CANDIDATE_ROWS, probing = false): number {
  const list = streams(rule);
  if (list.length === 0) return 1; // provably empty: nothing is read
  const tagTestOnEcho = testsOnEchoRow(rule);
  // `probing`: the window of a viewer whom anything may hide, whose every entry is probed (its echo row)
  const perEntry = 3 + Number(list.length > MAX_COMPOUND) + Number(rule.excludeLikedEchos) + Number(tagTestOnEcho) + Number(probing);
  const rarest = rule.tagMatchType === "all" && rule.authors.length === 0 ? 2 * rule.includedTags.length + 1 : 0;
  return Math.max(1, Math.floor((candidateRows - list.length - rarest) / perEntry));
}

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
const scrollHolds = (v: Record<"viewerId" | "scrollId" | RuleField, unknown>) =>
  sql`EXISTS (SELECT 1 FROM scrolls WHERE ${sc.id} = ${v.scrollId} AND ${sc.type} = 'feed'
        AND (${sc.isPrivate} = 0 OR ${sc.creatorId} = ${v.viewerId})
        AND ${sc.tagMatchType} = ${v.tagMatchType} AND json(${sc.includedTags}) = json(${v.includedTags})
        AND json(${sc.excludedTags}) = json(${v.excludedTags}) AND json(${sc.authors}) = json(${v.authors})
        AND ${sc.sortBy} = ${v.sortBy} AND ${sc.sortTimeRange} = ${v.sortTimeRange}
        AND ${sc.excludeLikedEchos} = ${v.excludeLikedEchos} AND ${sc.startDate} IS ${v.startDate} AND ${sc.endDate} IS ${v.endDate}
        AND ${sc.replies} = ${v.replies})`;

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
): Select<FeedPageRow> {
  if (!isId(viewerId)) throw new Error("feed engine: bad viewer id");
  // no ORDER BY: sorting the page would read each of its rows again; feedPage puts them in order
  const page = pageBody(rule, viewerId, now, seek, limit, offset, window);
  return whileScroll === null ? hydrated({ viewerId, limit: limit + 1 }, page) : hydratedWhile({ viewerId, limit: limit + 1, scrollId: whileScroll, ...storedRule(rule) }, page);
}

/** The engine's page statement before hydration: rows of (id, lk, ok, n). */
function pageBody(rule: FeedRule, viewerId: string, now: number, seek: Seek, limit: number, offset: number, window: number): string {
  // no rows, and nothing read
  if (provablyEmpty(rule, now)) return "SELECT NULL AS id, 0 AS ok, 0 AS n WHERE 0";
  const parts = streams(rule).map((s) => streamPart(rule, s, viewerId, now, seek));
  const order = orderBy(rule, "id", "lk");
  const merged = mergeParts(parts);
  // a viewer whom anything may hide (their blocks and mutes, muted words, moderated accounts):
  // each entry that matches is probed once more, on its echo row, inside the statement, so hidden
  // echos are stepped over within the bound below rather than leaving the page short after it
  const filters = viewerId === NOBODY ? "0" : viewerFiltersText(lit(viewerId));
  const probe = (id: string) => echoVisibleProbeText(lit(viewerId), id, "feeds");
  // an author the viewer hides is stepped over on the entry (its `au`, migration 0035): no probe
  const seen = (au: string) => (viewerId === NOBODY ? "1" : authorVisibleText(lit(viewerId), au));
  if (offset === 0 && !parts.some((p) => p.tested)) {
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
        WHERE ${seen("au")} LIMIT ${int(scan.probed)})`;
    const step = `SELECT id, lk, 0 AS ok, ${FRONTIER_N} AS n FROM (${merged} ORDER BY ${order} LIMIT CASE WHEN ${filters} THEN 1 ELSE 0 END OFFSET ${int(FEED_STEP - 1)})`;
    return `SELECT * FROM (${head}) UNION ALL SELECT * FROM (SELECT * FROM (${kept}) UNION ALL SELECT * FROM (${step}) LIMIT ${int(scan.probed + 1)})`;
  }
  // row_number/sum number the rows as they arrive (no sort), so the outer LIMIT stops the merge
  // once the page is full: a dense feed reads about a page of entries, not the window. A viewer
  // whom anything may hide has a smaller window (each entry's probe, one row)
  const w = `(CASE WHEN ${filters} THEN ${int(windowOfProbed(rule, window))} ELSE ${int(window)} END)`;
  const numbered = `SELECT id, lk, ok, row_number() OVER w AS n, sum(ok) OVER w AS k FROM (SELECT m.id AS id, m.lk AS lk, m.ok AND (NOT ${filters} OR (${seen("m.au")} AND ${probe("m.id")})) AS ok
      FROM (${merged} ORDER BY ${order} LIMIT ${w}) m)
    WINDOW w AS (ROWS UNBOUNDED PRECEDING)`;
  const wanted = `ok AND k > ${int(offset)}`;
  return `SELECT id, lk, ${wanted} AS ok, CASE WHEN n = ${w} THEN ${FRONTIER_N} ELSE n END AS n FROM (${numbered}) WHERE (${wanted}) OR n = ${w} LIMIT ${int(limit + 1)}`;
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
/** Entries a plain head probes beyond its page's look-ahead: echos a muted word or moderation may hide. */
const PROBE_SPARE = 3;
/**
 * A plain head's scan for a viewer whom anything may hide: each entry costs its index entry (one
 * more past MAX_COMPOUND streams; no numbering), a short page FEED_STEP more. An entry by an
 * author the viewer hides costs its entry alone (its author is on it: migration 0035); of the
 * others, up to `probed` go on to the hydration, which reads their echo row — the page's rows for
 * those it shows, 1 row more for each it does not (a muted word, moderation): at most
 * PROBE_SPARE more than the page's look-ahead. A screen's 62 candidate rows: 59 entries (every
 * entry probed, 2 rows each, was 30).
 */
const probedScan = (rule: FeedRule, window: number, limit: number): { entries: number; probed: number } => {
  const list = streams(rule);
  const rows = rowsOfWindow(rule, window) - list.length - FEED_STEP;
  const perEntry = 1 + Number(list.length > MAX_COMPOUND);
  return { entries: Math.max(FEED_STEP, Math.floor((rows - PROBE_SPARE) / perEntry)), probed: limit + 1 + PROBE_SPARE };
};

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
