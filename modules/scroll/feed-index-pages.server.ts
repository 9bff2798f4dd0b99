// Pages read from a feed index (decision 020): its entries after the cursor, up to its frontier,
// hydrated; for a reader who hides what they liked or anyone, a bounded run of entries.
// (Past ~300 lines: one statement builder whose every part is counted against the same row bound —
// first statements and fills, walks and hide-liked runs, decisions 026 and 034 — kept whole.)
import { DEFAULT_LIMIT, ECHO_ROWS, idFloor, isId, largestPage, PAGE_ROW_TARGET } from "../shared/index";
import { authorVisibleText, echoVisibleText, moderationVisibleText, viewerFiltersText, lit, select, sql, tables, type Select, type SQL } from "../shared/index.server";
import { echoColumns, type EchoRow } from "../echo/index.server";
import type { Seek } from "./feed-rules.server";
import { afterPosition, before, descending, orderSql, positionOf, reachesSql, windowMs, type IndexReach, type Position } from "./feed-index.server";
import { ruleKeyOf } from "./rule.server";
import { viewerKeyOf, type ViewerKind } from "./feed-viewer-index.server";
import type { FeedRule } from "./schema";

/**
 * The most entries one page reads from an index: each costs the entry and its echo's rows
 * (ECHO_ROWS at worst: the echo, its author, the reader's like and repost, a quote's quoted echo),
 * and for a viewer who hides anyone a probe of the entry's echo: 7 an entry, so 24 (36 when an
 * echo read 3 rows; decision 027, "Pages sized by rows per echo"). A web feed's 50 entries come
 * as 24 from an index; an API page asked for more answers 24 with more to come.
 */
export const INDEX_PAGE_MAX = largestPage(ECHO_ROWS + 2);


/** The index's state for a rule (or the key a hide-liked page chose: its viewer index's or the
 * rule's, decision 033): what a page read from it means at its end, and whose it is. */
export const indexState = (ruleKey: string | SQL) =>
  select(
    { state: tables.feedIndexes.state, complete: tables.feedIndexes.complete, floor: tables.feedIndexes.floor, floorRank: tables.feedIndexes.floorRank, cap: tables.feedIndexes.cap,
      near: tables.feedIndexes.near, nearRank: tables.feedIndexes.nearRank, viewer: sql<number>`viewer_id IS NOT NULL` },
    sql`FROM feed_indexes WHERE rule_key = ${ruleKey}`,
  );

/** An index page's row: the echo, its entry's rank (where the next page starts), whether it is on
 * the page (`feedOk`: a reader who hides what they liked skips the ones they liked) and, for such
 * a reader's page, its place among the entries read (`feedN`). */
export type IndexRow = EchoRow & { indexRank: number; feedOk: number; feedN: number };

/**
 * Where a short hide-liked page's next page starts at the latest: after its last echo or after
 * this many entries, whichever is later (all of them were read, and none left to show); the
 * scan's own last entry would cost as many rows as the scan, this one costs 12.
 */
export const HIDE_LIKED_STEP = 12;
/** A hide-liked page's largest: a screen's (30 when an echo read 3 rows). */
export const HIDE_LIKED_PAGE_MAX = DEFAULT_LIMIT;
/**
 * Entries a page for a reader who hides what they liked reads at most (decision 020, "Hide-liked
 * readers"), measured in D1's rows read: an entry costs 1, a liked one 1 more (its likes row, by
 * NOT EXISTS: a LEFT JOIN read a second index row where the planner chose likes_user_id, on the
 * bench store 3 rows a liked entry), one by an author the viewer hides no more (its author is on
 * the entry); each echo of the page ECHO_ROWS - 2 more than an entry it passed over (its echo,
 * author, the reader's repost and a quote's quoted echo); the lookups about 6. A page stops
 * reading once it holds limit+1; a page short of that read every entry of the scan and also reads
 * the HIDE_LIKED_STEP-th entry (as many rows) as its frontier and the last reachable one. The
 * worst pages, measured (`feed-index-hide-liked-reposts.test.ts`: every echo a quote the reader
 * reposted, as many of the top liked as the run allows, or more): 196 rows, 199 for a viewer
 * whom anything may hide (every echo probed). 51 entries: a reader who liked or hides up to 31 of
 * them gets a full page of 20 — more for one who reposts little (below).
 */
const HIDE_LIKED_ROWS = PAGE_ROW_TARGET - HIDE_LIKED_STEP - 6 - (ECHO_ROWS - 2) * (HIDE_LIKED_PAGE_MAX + 1);
/** Entries a hide-liked run gives up to a statement that chooses between the reader's viewer index
 * and the rule's (decision 033): the choice reads the viewer index's row where it is made (4 rows
 * measured when it exists and does not reach the page), each entry at least 1. */
export const VIEWER_CHOICE = 4;
/** Reposts of the reader counted (rows read) to learn whether their repost probes may cost less. */
const REPOSTS_COUNTED = 4;
export const HIDE_LIKED_SCAN = Math.floor((HIDE_LIKED_ROWS - REPOSTS_COUNTED) / 2) - 1;
/**
 * The reader's repost probes find a row only for an echo they reposted: a reader with R <
 * REPOSTS_COUNTED reposts (the count reads R rows) pays at most R of the page's 21 repost rows,
 * so the run takes (20 − 2R) / 2 entries more (a liked one 2 rows): 10 for a reader who reposts
 * nothing (61 entries, 41 liked), 7 for one with 3. (The bench's heaviest liker — 40 of the 80
 * most-liked echos of all time, 3 reposts — needs 56 entries for a screen of a most-liked feed:
 * stop 41.)
 */
export const moreEntriesFor = (reposts: number): number => (reposts >= REPOSTS_COUNTED ? 0 : Math.floor((HIDE_LIKED_PAGE_MAX - 2 * reposts) / 2));
/** Entries more, chosen in SQL by the reader's reposts counted (up to REPOSTS_COUNTED rows): `more(r)` for r of them. */
const forFewReposts = (viewerId: string, more: (reposts: number) => number): SQL =>
  sql`(CASE (SELECT count(*) FROM (SELECT 1 FROM reposts r WHERE r.user_id = ${viewerId} LIMIT ${REPOSTS_COUNTED}))
    ${sql.raw(Array.from({ length: REPOSTS_COUNTED }, (_, r) => `WHEN ${r} THEN ${more(r)}`).join(" "))} ELSE 0 END)`;
const moreForFewReposts = (viewerId: string): SQL => forFewReposts(viewerId, moreEntriesFor);
/**
 * A hiding reader's walk (decision 034, "Echos at what they can cost") plans each of its `shown`
 * echos' repost probe and REPOSTS_COUNTED rows to count the reader's reposts (`repostsKept` in
 * all); a reader with r < REPOSTS_COUNTED reposts spends at most 2r of them (the count reads r
 * rows, the probes find at most r): the rest buys entries, `perEntry` rows each, chosen in SQL.
 * A reader with more spends them all at the worst and walks REPOSTS_COUNTED entries fewer.
 */
export const repostsKept = (shown: number): number => REPOSTS_COUNTED + shown;
export const entriesForFewReposts = (shown: number, reposts: number, perEntry: number): number =>
  reposts >= REPOSTS_COUNTED ? 0 : Math.floor((repostsKept(shown) - 2 * reposts) / perEntry);
/** Entries a hiding reader's first walk of a page of `limit` takes beyond filteredScan's, for one who reposts nothing. */
export const firstWalkForFewReposts = (limit: number): number => entriesForFewReposts(limit + 1, 0, 1) - REPOSTS_COUNTED;
/**
 * Entries a page of `limit` echos reads at most for a reader whom anything may hide (issue 32)
 * and who does not hide what they liked (`entries`), and how many of them go on to the hydration
 * at most (`probed`): an entry costs 1 — one by an author the viewer hides no more, its author is
 * on the entry (migration 0035); the others' echo rows are read by the hydration, which tests
 * them there (ECHO_ROWS an echo shown, 1 row one a word or moderation hides: at most PROBE_SPARE
 * of those past the look-ahead); a short page its HIDE_LIKED_STEP-th entry and the lookups. A
 * screen (20): 58 + 3 + 5 × 21 + 24 = 190 — full while 21 of its next 58 entries show, else
 * short with its cursor where it stopped (every entry probed, 2 rows each, was 30 entries). The
 * walk of a rule without a window trades 4 of those entries and the echos' repost rows for the
 * reader's reposts counted (decision 034, "Echos at what they can cost"): 77 entries for one repost.
 */
// (12: the frontier and last-entry reads and the statement's own lookups — measured 193 rows for a
// page of 20 with 6 here, 201 inside the feed's document)
export function filteredScan(limit: number): { entries: number; probed: number } {
  const rows = PAGE_ROW_TARGET - HIDE_LIKED_STEP - 12 - ECHO_ROWS * (limit + 1);
  return { entries: Math.max(limit + 1, rows - PROBE_SPARE), probed: limit + 1 + PROBE_SPARE };
}
/** Entries probed beyond a page's look-ahead: echos a muted word or moderation may hide. */
const PROBE_SPARE = 3;
/**
 * A filling statement's own size (decision 034): the entries it walks (a hide-liked run's too) and
 * its frontier's place among them (`step`: 1, the entry after the cursor, costs a row where the
 * HIDE_LIKED_STEP-th costs 12 — the page's first statement has already moved past what it read),
 * whether anything may hide an echo from the viewer (`filters`, read in the page's first batch), and
 * whether its plan kept the rows to count the reader's reposts (`fewReposts`: repostsKept), and
 * whether it reads no last entry of its own (`bare`: the first statement read it — bareFill).
 */
export type Sized = { entries: number; step: number; filters: boolean; fewReposts: boolean; bare?: boolean };
/** Whether the reader liked or reposted an echo, and the echo it quotes, asked only of a row the
 * page may show (`p.n` ≥ 0): a frontier or last-entry row reads its echo and author, 2 rows, not
 * ECHO_ROWS (decision 034, "Echos at what they can cost"). */
function pageColumns(viewerId: string) {
  const c = echoColumns(viewerId, "feeds");
  return {
    ...c,
    isLiked: sql<number>`(CASE WHEN p.n >= 0 THEN ${c.isLiked} ELSE 0 END)`,
    isReposted: sql<number>`(CASE WHEN p.n >= 0 THEN ${c.isReposted} ELSE 0 END)`,
    quoted: sql<string | null>`(CASE WHEN p.n >= 0 THEN ${c.quoted} END)`,
    mutedWord: sql<string | null>`(CASE WHEN p.n >= 0 THEN ${c.mutedWord} END)`,
  };
}
/** `feedN` of that frontier row, and of the last entry the page could reach (no echo of the page has them). */
const FRONTIER_ROW = -1;
export const LAST_ROW = -2;

/**
 * A page from the index: its entries after the cursor in the feed's order (one range of the
 * entries' key), hydrated, up to the index's frontier; a windowed rule's entries that aged out
 * since the last repair pass skipped. Read only when the index is ready and holds this depth
 * (`reaches`, in SQL); otherwise it reads the one feed_indexes row and nothing more. `guard` adds
 * the caller's own condition (the scroll still holds the rule, the viewer may see it). For a
 * reader who hides what they liked, at most HIDE_LIKED_SCAN entries are read: the unliked ones up
 * to the page and, on a short page, the HIDE_LIKED_STEP-th entry as a frontier the next page
 * starts after at the latest (its rows come in no order: `indexPage` sorts them).
 */
export function indexPageQuery(
  rule: FeedRule,
  viewerId: string,
  seek: Seek,
  limit: number,
  guard: SQL = sql`1`,
  now = Date.now(),
  keyWhile: SQL | null = null,
  indexKey: string | SQL | null = null,
  sized: Sized | null = null,
): Select<IndexRow> {
  // `keyWhile`: the index is sought only while it holds (a NULL key otherwise, evaluated once as
  // the seek starts: nothing read), for a page the engine answers in the other case (pages.server.ts);
  // `indexKey`: the index read, when not the rule's own (a viewer index: decision 033)
  const own = indexKey ?? ruleKeyOf(rule);
  const key = keyWhile === null ? own : sql`(CASE WHEN ${keyWhile} THEN ${own} END)`;
  const at = positionOf(rule, seek);
  const w = windowMs(rule);
  // (every statement tests it past its LIMIT, so that an entry aged out since the repair pass
  // counts among those it reads: a walk the LIMIT bounds in rows, decision 034 — tested before
  // the LIMIT, a heavy hider's page of a one-day feed whose aged entries the cron had not yet
  // swept read 342–541 rows on the million-echo store. A windowed rule's page therefore walks as
  // a filtered one does, its frontier read when it is short: `walks`.)
  const floor = w === null ? null : idFloor(now - w);
  const freshAfter = (alias: string) => (floor === null ? sql`` : sql`AND ${sql.raw(alias)}.echo_id >= ${floor}`);
  // the frontier and "the index reaches the cursor", each in the feed's order
  const desc = descending(rule);
  const upToFrontier = desc ? sql`(ie.rank, ie.echo_id) >= (fi.floor_rank, fi.floor)` : sql`ie.echo_id <= fi.floor`;
  const reachesAt = reachesSql(rule, at, "fi");
  const where = sql`FROM feed_indexes fi JOIN feed_index_entries ie ON ie.index_id = fi.id
      WHERE fi.rule_key = ${key} AND fi.state = 'ready' AND ${afterPosition(rule, at, "ie")}
        AND (fi.complete = 1 OR (${reachesAt} AND ${upToFrontier}))
        AND ${guard}`;
  const entries = sql`${where} ORDER BY ${orderSql(rule, "ie")}`;
  const entriesBackwards = sql`${where} ORDER BY ${orderSql({ ...rule, sortBy: descending(rule) ? "oldestFirst" : "newestFirst" }, "ie")}`;
  // what the viewer does not see (issue 32): authors they hide, on the entry (its author), and
  // moderated authors and muted words on the echo row the hydration reads (`shown`), only for a
  // viewer whom anything may hide (`filters`, once per statement); hidden echos leave on the id
  // (no row). `viewerId` is checked by the caller's session (an id), written as a literal (`lit`).
  if (!isId(viewerId)) throw new Error("feed index: bad viewer id");
  const viewer = lit(viewerId);
  // (a filling statement knows them from the page's first batch: a constant, not six probes of the sets)
  const filters = sql.raw(sized ? (sized.filters ? "1" : "0") : viewerFiltersText(viewer));
  // a page that may step over entries it does not show: a viewer's hidden ones, or aged ones
  const walks = floor === null ? filters : sql`1`;
  // the same test on the echo row the hydration reads (alias e): a walked entry's only test but
  // its author's, so an echo that shows reads its row once (decision 026); a frontier row passes
  const shown = sql`(p.ok = 0 OR NOT ${filters} OR ${sql.raw(echoVisibleText(viewer, "e", "feeds"))})`;
  const columns = { ...pageColumns(viewerId), indexRank: sql<number>`p.rank`, feedOk: sql<number>`p.ok`, feedN: sql<number>`p.n` };
  // (`only`: read them only when it holds — a LIMIT of 0 reads nothing)
  const step = sized?.step ?? HIDE_LIKED_STEP;
  const frontier = (only: SQL = sql`1`) =>
    sql`SELECT f.echo_id, f.rank, 0 AS ok, ${FRONTIER_ROW} AS n FROM (SELECT ie.echo_id, ie.rank ${entries} LIMIT CASE WHEN ${only} THEN 1 ELSE 0 END OFFSET ${step - 1}) f`;
  // and the last entry this page could reach (read backwards: a row or two), so that a page
  // whose scan met it says there is nothing more (or that the index's frontier is there)
  const last = (only: SQL = sql`1`) =>
    sql`SELECT z.echo_id, z.rank, 0 AS ok, ${LAST_ROW} AS n FROM (SELECT ie.echo_id, ie.rank ${entriesBackwards} LIMIT CASE WHEN ${only} THEN 1 ELSE 0 END) z`;
  // A filling statement reads no look-ahead echo (5 rows at worst): its frontier and last entry
  // come first, so the page of `limit` echos still says whether more follow (indexPage)
  const ahead = sized ? 0 : 1;
  const bare = sized?.bare === true;
  // (rows besides the echos: a first statement's look-ahead, a filling one's frontier and last entry, a bare one's frontier)
  const ends = bare ? 1 : 2;
  const union = (main: SQL, only: SQL | undefined, cap: SQL | number) =>
    bare
      ? sql`SELECT * FROM (${frontier(only)}) UNION ALL SELECT * FROM (${main}) LIMIT ${cap}`
      : sized
      ? sql`SELECT * FROM (${frontier(only)}) UNION ALL SELECT * FROM (${last(only)}) UNION ALL SELECT * FROM (${main}) LIMIT ${cap}`
      : sql`SELECT * FROM (${main}) UNION ALL SELECT * FROM (${frontier(only)}) UNION ALL SELECT * FROM (${last(only)}) LIMIT ${cap}`;
  // (a statement that chooses its index — a viewer index or the rule's, decision 033 — reads the
  // viewer index's row where the choice is made, 4 rows measured where the viewer has that index:
  // there, and only there, the run is VIEWER_CHOICE shorter — asked in SQL, so a reader who has
  // none keeps the whole run whatever the isolate knows; h32i: either kind a page may choose)
  const chooses = indexKey !== null && typeof indexKey !== "string";
  const choiceOf = (kinds: ViewerKind[]) =>
    chooses ? sql` - (CASE WHEN EXISTS (SELECT 1 FROM feed_indexes v WHERE v.rule_key IN (${sql.join(
          kinds.map((k) => sql`${viewerKeyOf(ruleKeyOf(rule), viewerId, k)}`),
          sql`, `,
        )})) THEN ${VIEWER_CHOICE} ELSE 0 END)` : sql``;
  if (!rule.excludeLikedEchos) {
    // A reader whom nothing may hide walks the entries up to the page (CROSS JOIN keeps them the
    // outer loop in the feed's order, so the LIMIT stops the walk). One whom anything may reads
    // at most filteredScan(limit) entries, up to the page, and a page short of it also its
    // HIDE_LIKED_STEP-th entry and the last one it could reach, as a hide-liked reader's (below):
    // it steps over what it does not show within its rows, and says where the next page starts.
    // (an author the viewer hides is left out on the entry, no probe; the rest are tested on the
    // echo row as the page reads it, `shown`, up to the page: decision 026)
    // (a statement choosing a hiding viewer index or the rule's reads its row: VIEWER_CHOICE fewer
    // where the viewer has one, `choice`)
    const scan = sized ? { entries: sized.entries, probed: limit + PROBE_SPARE } : filteredScan(limit);
    const choice = sized ? sql`` : choiceOf(["h"]);
    // (a hiding reader's walk takes the repost rows a reader with few reposts does not spend: its
    // echos', `limit` and the look-ahead — a filling statement's for whomever it fills, a first
    // statement's where only a hiding reader walks (`walks` is `filters`: a rule without a window;
    // asking `filters` again would read its rows again, a row or more for every reader))
    const fewReposts = forFewReposts(viewerId, (r) => entriesForFewReposts(limit + ahead, r, 1));
    const walkLimit = sized ? (sized.fewReposts ? sql`${scan.entries} + ${fewReposts}` : sql`${scan.entries}`) : floor === null ? sql`${scan.entries - REPOSTS_COUNTED} + ${fewReposts}${choice}` : sql`${scan.entries}${choice}`;
    const walked = sql`SELECT a.echo_id, a.rank, 1 AS ok, 0 AS n FROM (SELECT ie.echo_id, ie.rank, ie.author_id FROM feed_indexes fi CROSS JOIN feed_index_entries ie ON ie.index_id = fi.id
          WHERE fi.rule_key = ${key} AND fi.state = 'ready' AND ${afterPosition(rule, at, "ie")}
            AND (fi.complete = 1 OR (${reachesAt} AND ${upToFrontier}))
            AND ${guard} AND ${sql.raw(moderationVisibleText(viewer, "ie.author_id", "ie.echo_id", "public"))}
          ORDER BY ${orderSql(rule, "ie")} LIMIT CASE WHEN ${walks} THEN ${walkLimit} ELSE ${limit + ahead} END) a
          WHERE (NOT ${filters} OR ${sql.raw(authorVisibleText(viewer, "a.author_id"))}) ${freshAfter("a")} LIMIT CASE WHEN ${walks} THEN ${scan.probed} ELSE ${limit + ahead} END`;
    return select(
      columns,
      sql`FROM (${union(walked, walks, scan.probed + ends)}) p
        CROSS JOIN echos e ON e.id = p.echo_id JOIN users u ON u.id = e.author_id WHERE ${shown} LIMIT ${limit + ends - ahead}`,
    );
  }
  // hide-liked (decision 020, "Hide-liked readers"): the first HIDE_LIKED_SCAN entries, as a
  // co-routine the page stops reading once it holds limit+1; an entry the reader liked is left out
  // by an anti-join on the likes primary key (echo_id, user_id), one by an author they hide on the
  // entry (its author: migration 0035, no row), and for a viewer whom anything may hide at most
  // `probed` others go on to the hydration, which tests the rest on the echo row it reads (`shown`,
  // as the walk above: every entry probed, 3 rows a liked one, gave such a viewer 36 entries, not
  // 54). No numbering: window functions buffered every entry (about 5 rows an entry). A page short
  // of limit+1 also reads the HIDE_LIKED_STEP-th entry (UNION ALL under a LIMIT stops before its
  // second part when the first filled it).
  const probed = limit + ahead + PROBE_SPARE;
  // (either kind: a hider's page of a hide-liked rule may choose their `b:` one, decision 033)
  const choice = choiceOf(["v", "b"]);
  // (a filling statement's run is sized by the rows its first round trip left: decision 034)
  const runLimit = sized
    ? sized.fewReposts ? sql`${sized.entries} + ${forFewReposts(viewerId, (r) => entriesForFewReposts(limit, r, 2))}` : sql`${sized.entries}`
    : sql`${HIDE_LIKED_SCAN} + ${moreForFewReposts(viewerId)}${choice}`;
  const kept = sql`SELECT s.echo_id, s.rank, 1 AS ok, 0 AS n FROM (SELECT ie.echo_id, ie.rank, ie.author_id ${entries} LIMIT ${runLimit}) s
      WHERE NOT EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = s.echo_id AND l.user_id = ${viewerId}) AND (NOT ${filters} OR ${sql.raw(authorVisibleText(viewer, "s.author_id"))})
        AND ${sql.raw(moderationVisibleText(viewer, "s.author_id", "s.echo_id", "public"))} ${freshAfter("s")}
      LIMIT CASE WHEN ${filters} THEN ${probed} ELSE ${limit + ahead} END`;
  return select(
    columns,
    sql`FROM (${union(kept, undefined, sql`CASE WHEN ${filters} THEN ${probed + ends} ELSE ${limit + ends - ahead} END`)}) p
      CROSS JOIN echos e ON e.id = p.echo_id JOIN users u ON u.id = e.author_id WHERE ${shown} LIMIT ${limit + ends - ahead}`,
  );
}

/**
 * What an index page's rows mean: the page's echos in the feed's order (at most `take`), where
 * the next page starts when it may be more, and whether the page stopped short at the index's
 * frontier (`atFrontier`: the engine goes on from there) or at the entries a hide-liked reader's
 * page may read (`after`).
 */
export function indexPage(rule: FeedRule, rows: IndexRow[], take: number, st: IndexReach): { rows: IndexRow[]; full: boolean; after: Position | null; atFrontier: boolean; end?: Position } {
  const pos = (r: IndexRow): Position => ({ rank: r.indexRank, id: r.id });
  const inOrder = [...rows].sort((a, b) => (before(rule, pos(a), pos(b)) ? -1 : before(rule, pos(b), pos(a)) ? 1 : 0));
  const matches = inOrder.filter((r) => r.feedOk);
  if (matches.length > take) return { rows: matches.slice(0, take), full: true, after: pos(matches[take - 1]!), atFrontier: false };
  // a short hide-liked page: every entry of its scan was read; the next page starts after its
  // last echo or the frontier row, whichever comes later. Without a frontier row the index
  // holds fewer entries than HIDE_LIKED_STEP here: the scan read them all.
  const step = inOrder.find((r) => r.feedN === FRONTIER_ROW);
  const end = inOrder.find((r) => r.feedN === LAST_ROW);
  if (step) {
    const last = matches[matches.length - 1];
    const after = last && before(rule, pos(step), pos(last)) ? pos(last) : pos(step);
    // unless the scan met the last entry it could reach: then as a page that read them all
    // (`end`: a filling statement that knows it need read no last entry of its own: bareFill)
    if (!end || before(rule, after, pos(end))) return { rows: matches, full: false, after, atFrontier: false, ...(end ? { end: pos(end) } : {}) };
  }
  const atFrontier = !st.complete && st.floor !== null;
  return { rows: matches, full: false, after: atFrontier ? st.floor : null, atFrontier };
}
