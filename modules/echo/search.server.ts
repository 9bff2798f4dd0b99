// GET /api/search/echos: echos matching words, #tags and @users, ranked by BM25's term weighting
// within windows of the newest matches (search-rank.ts, decision 021), with the matched words' places in the text (docs/product-notes.md, Search).
// Two D1 round trips: the window of hits (with the session check), then the page's echos by id.
// (Past ~300 lines: the hits window and the echos' statement share one row accounting — the window's
// size, its spares and the hider's bound of decision 028 — kept in one file so the bound reads whole.)
import * as v from "valibot";
import { badRequest, CURSOR_INVALID, cursorInteger, cursorSchema, DEFAULT_LIMIT, ECHO_ROWS, encodeCursor, PAGE_ROW_TARGET, pagination } from "../shared/index";
import type { Placeholder } from "drizzle-orm";
import { authorVisible, lit, moderationVisible, rowsLeftAfterOneTrip, viewerHides, wordsVisible, batch, parseInput, prepared, sql, type AppContext, type RowOf, type SQL, select } from "../shared/index.server";
import { echoColumns, toEcho } from "./echo-row.server";
import type { Echo, EchoPage, Highlights } from "./schema";
import { indexedTag, parseSearch, type SearchTerm } from "./search-query";
import { CLOSE, OPEN, scorer } from "./search-rank";

/**
 * How many of the newest matches one ranking covers. Every page reads this window (plus one row
 * to know whether older matches exist) and ranks it; a window is cut into pages by the cursor,
 * and the next window starts below the oldest hit of this one. Three 20-echo pages per window
 * keep a page within 200 rows read (docs/scaling.md).
 */
export const SEARCH_WINDOW = 60;

/**
 * The window of a viewer whom anything may hide (a hidden-author set or muted words; issue 32,
 * docs/decisions/026-safety.md "Filling a short page", 028 "A hider's window"), on a page of at
 * most 20: a hit the viewer does not see costs its FTS row only (its author is a column of the
 * index, tested in the window) or, hidden by a word, its echo row (a spare hit), so the window
 * takes what the page's echos cannot cost. A shown echo costs SHOWN_ROWS (its row, its author, a
 * quote's echo) and its like and repost probes, which find a row only for an echo the viewer
 * liked or reposted: the viewer's likes and reposts are counted in the window's SQL (up to
 * LIKES_COUNTED and REPOSTS_COUNTED rows, as decision 034 bounds a feed's repost probes), and a
 * viewer with n < counted of them spends at most 3n rows on them (n counted twice, n found), one
 * with more every echo's and the count. What is left buys hits (hidingWindow): 122 for a viewer
 * with no like and no repost, 94 for the bench's heavy hider (likes, 2 reposts), 72 (main's one
 * size for all) for one who liked and reposted 4 or more. A viewer whom nothing hides reads
 * SEARCH_WINDOW (no hiding window is 60).
 */
const LIKES_COUNTED = 1;
const REPOSTS_COUNTED = 4;
const SHOWN_ROWS = ECHO_ROWS - 2;
/** Hidden-by-word hits every hiding window keeps room to step over (more when the window cost less: spareHits). */
const SPARE_MIN = 6;
/**
 * The page statement's own rows past its echos and spares (the viewer's sets): measured 4 (the
 * worst case in search-hider.server.test.ts). The measured spares keep a page within 200 rows
 * less this constant's margin over what it truly costs, whatever the window read.
 */
const SEARCH_PAGE_FIXED = 6;
/** Rows a screen's probes of one kind cost at most, n counted of `counted`: the count (read twice: the window's size is its column and its LIMIT) and the probes that find a row. */
const probeRows = (n: number, counted: number) => 2 * Math.min(n, counted) + foundRows(n, counted);
const foundRows = (n: number, counted: number) => (n < counted ? n : DEFAULT_LIMIT);
const hidingWindow = (likes: number, reposts: number) =>
  PAGE_ROW_TARGET - 2 - DEFAULT_LIMIT * SHOWN_ROWS - probeRows(likes, LIKES_COUNTED) - probeRows(reposts, REPOSTS_COUNTED) - SPARE_MIN;
/** The largest window (a viewer with no like and no repost): a cursor's offset stays below it. */
const HIDING_WINDOW_MAX = hidingWindow(0, 0);
/**
 * The rows a screen's like and repost probes can find, by the window they left (the page knows
 * its window, not the counts: where two counts give one window, the larger). The counts' own rows
 * were the window's, measured with it.
 */
const foundByWindow = new Map<number, number>();
for (let l = 0; l <= LIKES_COUNTED; l++) {
  for (let r = 0; r <= REPOSTS_COUNTED; r++) {
    const w = hidingWindow(l, r);
    foundByWindow.set(w, Math.max(foundByWindow.get(w) ?? 0, foundRows(l, LIKES_COUNTED) + foundRows(r, REPOSTS_COUNTED)));
  }
}

const counted = (table: "likes" | "reposts", viewerId: string | Placeholder, n: number) =>
  sql`(SELECT count(*) FROM (SELECT 1 FROM ${sql.raw(table)} WHERE user_id = ${viewerId} LIMIT ${sql.raw(String(n))}))`;
const hitsWindow = (viewerId: string | Placeholder, roomy: boolean): SQL => {
  if (!roomy) return sql.raw(String(SEARCH_WINDOW));
  const arms: string[] = [];
  for (let l = 0; l <= LIKES_COUNTED; l++) {
    for (let r = 0; r <= REPOSTS_COUNTED; r++) arms.push(`WHEN ${l * (REPOSTS_COUNTED + 1) + r} THEN ${hidingWindow(l, r)}`);
  }
  return sql`(CASE WHEN ${viewerHides(viewerId)}
    THEN (CASE ${counted("likes", viewerId, LIKES_COUNTED)} * ${sql.raw(String(REPOSTS_COUNTED + 1))} + ${counted("reposts", viewerId, REPOSTS_COUNTED)} ${sql.raw(arms.join(" "))} END)
    ELSE ${sql.raw(String(SEARCH_WINDOW))} END)`;
};

export type SearchHit = Echo & { highlights: Highlights };
export type SearchPage = { echos: SearchHit[]; pagination: EchoPage["pagination"] };

/** An author that cannot exist: ids are 26 characters (shared/ids.ts). */
const NO_AUTHOR = "0";

/** A term's part of the MATCH expression, quoted by us; an @name's is null (resolved in SQL). */
function literalPart(t: SearchTerm): string | null {
  if (t.kind === "words") return `{body tags} : "${t.text}"`;
  if (t.kind === "tag") return `tags : "${indexedTag(t.tag)}"`;
  return null;
}

/** The MATCH expression: every term quoted by us; @names resolved to author ids inside SQL. */
function matchExpression(terms: SearchTerm[]): SQL {
  const parts = terms.map((t): SQL => {
    if (t.kind === "user") return sql`'author : "' || COALESCE((SELECT id FROM users WHERE user_name = ${t.userName} COLLATE NOCASE), ${NO_AUTHOR}) || '"'`;
    return sql`${literalPart(t)}`;
  });
  return sql.join(parts, sql.raw(` || ' AND ' || `));
}

/**
 * Without an @name every part is text we quoted, so the whole expression is one value: the
 * statement then has one shape for every search (prepared once per isolate, below), where
 * building it per term count made Drizzle render it anew on every request (issue 15).
 */
function literalMatch(terms: SearchTerm[]): string | null {
  const parts = terms.map(literalPart);
  return parts.every((p) => p !== null) ? parts.join(" AND ") : null;
}

/**
 * A window's hits: the FTS5 rowid (newest = highest), the echo id, and its text and tags with the
 * matched tokens marked (the ranking's input and the highlights). echo_search is outside the
 * Drizzle schema (a virtual table), so the columns are typed here, as FTS5 defines them
 * (migrations/0013_echo_search.sql). No bm25(): it counts each term's whole doclist for its IDF,
 * so its cost grew with the store (0.21x the constant route at 1 M echos, 0.12x at 3 M; decision 021).
 */
const windowColumns = (viewerId: string | Placeholder, roomy: boolean) => ({
  r: sql<number>`rowid`,
  // the window's size for this viewer (windowOf_: uncorrelated, evaluated once)
  w: sql<number>`${hitsWindow(viewerId, roomy)}`,
  eid: sql<string>`eid`,
  marked: sql<string | null>`highlight(echo_search, 0, ${OPEN}, ${CLOSE})`,
  markedTags: sql<string | null>`highlight(echo_search, 1, ${OPEN}, ${CLOSE})`,
  // whether the viewer sees the hit's author (issue 32; `author` is the author's id): a column,
  // not a condition, so the window stays SEARCH_WINDOW hits read whatever the viewer hides
  // (stepping over hidden hits cost ~2 rows each: 211 rows for a page of 20 with 2 in 5 hidden)
  // and, for muted words, a test on the hit's own text (RAW_WORDS): the page's statement tests the
  // echo's folded words again, so a word this misses costs a spare hit's row, not a leak
  visible: sql<number>`${authorVisible(viewerId, "author")} AND ${moderationVisible(viewerId, "author", "eid", "public")} AND ${wordsVisible(viewerId, "search", RAW_WORDS, "author")}`,
});

/**
 * The hit's text as the muted-word test reads it in the window (issue 32, decision 028 "A hider's
 * window"): ASCII lowercased, the usual ASCII separators (and '#') made spaces, between spaces.
 * It finds a phrase (" coffee ") only where the echo's folded words (mute_text, shared/mute-text.ts)
 * hold it too — a match here lies between spaces and is made of folded characters, which folding
 * keeps; accents, other scripts' capitals, a tag pattern (" #tag ") or double spaces do not match
 * here and are left to the page's test — so a hit it hides is hidden, and costs its FTS row only.
 */
const RAW_WORDS = `(' ' || ${[".", ",", "!", "?", ";", ":", "'", '"', "(", ")", "-", "#", "\n", "\t", "/", "*", "&", "[", "]"].reduce(
  (expr, ch) => `replace(${expr}, ${ch === "\n" ? "char(10)" : ch === "\t" ? "char(9)" : lit(ch)}, ' ')`,
  "lower(body)",
)} || ' ')`;
type WindowRow = RowOf<ReturnType<typeof windowColumns>>;
type Cursor = { h: number; o: number };

/** A search page's cursor: the rank (h) and the offset within its window (o) to go on from. */
const SearchCursorSchema = cursorSchema(
  v.object({ h: cursorInteger(1), o: v.pipe(cursorInteger(0), v.maxValue(HIDING_WINDOW_MAX - 1, CURSOR_INVALID)) }, CURSOR_INVALID),
);

function readCursor(cursor: string | undefined, page: number): Cursor | null {
  if (cursor === undefined) {
    if (page > 1) throw badRequest("cursor is required after page 1 (pagination.nextCursor)");
    return null;
  }
  return parseInput(SearchCursorSchema, cursor);
}

/** The marked text back to offsets; null if it is not the echo's text (it always should be). */
export function markedRanges(marked: string | null, content: string): [number, number][] {
  if (!marked) return [];
  const ranges: [number, number][] = [];
  let plain = "";
  let start = -1;
  for (const ch of marked) {
    if (ch === OPEN) start = plain.length;
    else if (ch === CLOSE && start >= 0) {
      ranges.push([start, plain.length]);
      start = -1;
    } else plain += ch;
  }
  return plain === content ? ranges : [];
}

function matchedTags(echo: Echo, terms: SearchTerm[]): string[] {
  const wanted = new Set(terms.flatMap((t) => (t.kind === "tag" ? [t.tag] : t.kind === "words" ? [t.text.toLowerCase()] : [])));
  return echo.tags.map((t) => t.name).filter((name) => wanted.has(name));
}

/** A window of hits newest first, below a rank when one is given (the cursor's). */
function windowOf(viewerId: string | Placeholder, match: SQL | Placeholder, below: SQL | Placeholder | null, roomy: boolean) {
  // CAST: compared with the bare bound number, FTS5 did not seek to the bound and a deeper window
  // re-read every newer hit (measured in workerd: 561 rows read instead of 61 below rowid 500)
  return select(
    windowColumns(viewerId, roomy),
    sql`FROM echo_search WHERE echo_search MATCH (${match}) ${below === null ? sql.raw("") : sql`AND rowid < CAST(${below} AS INTEGER)`}
      ORDER BY rowid DESC LIMIT ${hitsWindow(viewerId, roomy)} + 1`,
  );
}
/** The two literal windows, for a page of at most 20 (roomy: a hiding viewer's is HIDING_WINDOW) and larger. */
const literalWindows = [false, true].map((roomy) => ({
  newest: prepared(["viewerId", "match"], (v) => windowOf(v.viewerId, v.match, null, roomy)),
  older: prepared(["viewerId", "match", "below"], (v) => windowOf(v.viewerId, v.match, v.below, roomy)),
}));

/**
 * The ranked hits' echos, by id, in two shapes: 20 slots (a usual page) or SEARCH_WINDOW, the
 * unused ones holding "" (no echo has it), so the statement is rendered once per shape, not per
 * count of hits. A JSON list through json_each would be one shape too, but its rows count as
 * rows read (20 more per page). The slots are a VALUES list walked in rank order (CROSS JOIN keeps
 * it the outer loop) up to `take` echos: muted words (decision 028) are tested on each hit's
 * echo row in the WHERE, so a hit they hide is stepped over (its echo row, 1 row) and the page
 * goes on with the next hits the caller sent (issue 32: the page came back short by them).
 */
const ID_SLOTS = [20, SEARCH_WINDOW] as const;
const echosByIdSlots = ID_SLOTS.map((size) => {
  const names = Array.from({ length: size }, (_, i) => `id${i}`);
  const statement = prepared(["viewerId", "take", ...names], (v) =>
    select(
      echoColumns(v.viewerId!, "search"),
      sql`FROM (VALUES ${sql.join(names.map((n) => sql`(${v[n]})`), sql.raw(", "))}) h CROSS JOIN echos e ON e.id = h.column1 JOIN users u ON u.id = e.author_id
        WHERE ${wordsVisible(v.viewerId!, "search")} LIMIT ${v.take}`,
    ),
  );
  return { statement, names };
});

function echosByIds(viewerId: string, ids: readonly string[], take: number) {
  const { statement, names } = echosByIdSlots.find((s) => ids.length <= s.names.length)!;
  return statement({ viewerId, take, ...Object.fromEntries(names.map((n, i) => [n, ids[i] ?? ""])) });
}

/**
 * Hits sent past the page, for the muted words to step over: a hit hidden costs its echo row (1),
 * a shown echo up to ECHO_ROWS; with the window's read (its size + 2) the page stays within
 * PAGE_ROW_TARGET — a screen (20) of SEARCH_WINDOW may step over 28 hidden hits, the largest page
 * (30) over none. A hiding viewer's window (not SEARCH_WINDOW) left SPARE_MIN for a screen; when
 * D1 says what the window's round trip read (`left`: rows of the request's budget after it), the
 * spares are what that leaves past the screen's echos and the probes that can find a row — more
 * when the window cost less than its plan (fewer hits, likes or reposts counted short).
 */
function spareHits(limit: number, window: number, left: number | null): number {
  if (window === SEARCH_WINDOW) return Math.max(0, PAGE_ROW_TARGET - (window + 2) - limit * ECHO_ROWS);
  if (left === null) return SPARE_MIN;
  return Math.max(0, left - limit * SHOWN_ROWS - (foundByWindow.get(window) ?? 2 * DEFAULT_LIMIT) - SEARCH_PAGE_FIXED);
}

/** Best first (search-rank.ts: higher is better), ties newest first. */
function ranked(hits: WindowRow[], terms: SearchTerm[]): WindowRow[] {
  const scores = scorer(terms)(hits);
  return hits
    .map((hit, i) => ({ hit, score: scores[i]! }))
    .sort((a, b) => b.score - a.score || b.hit.r - a.hit.r)
    .map((s) => s.hit);
}

export async function searchEchos(
  app: AppContext,
  viewerId: string,
  q: string | undefined,
  req: { page: number; limit: number; cursor?: string },
): Promise<SearchPage> {
  const terms = parseSearch(q);
  const at = readCursor(req.cursor, req.page);
  const limit = Math.min(req.limit, SEARCH_WINDOW);
  const empty = { echos: [], pagination: { ...pagination(req.page, limit, 0, false), nextCursor: null } };
  if (terms.length === 0) return empty;

  const literal = literalMatch(terms);
  // (LIST_FILL="0": SEARCH_WINDOW for everyone, the bench's before, as it turns the lists' fill off)
  const roomy = limit <= DEFAULT_LIMIT && (app.env as { LIST_FILL?: string }).LIST_FILL !== "0";
  const windows = literalWindows[Number(roomy)]!;
  const [window] = await batch(app.db, [
    literal === null
      ? windowOf(viewerId, matchExpression(terms), at ? sql`${at.h}` : null, roomy)
      : at
        ? windows.older({ viewerId, match: literal, below: at.h })
        : windows.newest({ viewerId, match: literal }),
  ]);
  // this viewer's window (HIDING_WINDOW for one whom anything may hide): the same on every page
  const size = window[0]?.w ?? SEARCH_WINDOW;
  const olderExist = window.length > size;
  const hits = window.slice(0, size);
  const offset = at?.o ?? 0;
  // ranked over the whole window (the scores do not depend on what the viewer hides), then the
  // hidden authors' hits leave: a window of 60 with 2 in 5 hidden still fills a first page of 20
  const shown = ranked(hits, terms).filter((h) => h.visible === 1);
  // the page's hits and, for the muted words to step over, a few after it (spareHits)
  const sent = shown.slice(offset, offset + Math.min(limit + spareHits(limit, size, rowsLeftAfterOneTrip(app, "LIST_FILL")), SEARCH_WINDOW));
  // the window is fixed by its upper bound, so later pages of it rank the same hits
  const top = at?.h ?? (hits[0] ? hits[0].r + 1 : 1);

  const rows = sent.length ? (await batch(app.db, [echosByIds(viewerId, sent.map((h) => h.eid), limit)]))[0] : [];
  const byId = new Map(rows.map((row) => [row.id, toEcho(row)]));
  // the hits this page used up: up to its last echo when it filled, else every hit it was sent
  // (one deleted between the two reads, or hidden by a word, is passed over as it was)
  const lastShown = rows.length === limit ? Math.max(...rows.map((row) => sent.findIndex((h) => h.eid === row.id))) : sent.length - 1;
  const used = lastShown + 1;
  let next: Cursor | null = null;
  if (offset + used < shown.length) next = { h: top, o: offset + used };
  else if (olderExist) next = { h: hits[hits.length - 1]!.r, o: 0 };
  const echos = sent.slice(0, used).flatMap((hit): SearchHit[] => {
    const echo = byId.get(hit.eid);
    if (!echo) return [];
    return [{ ...echo, highlights: { content: markedRanges(hit.marked, echo.content), tags: matchedTags(echo, terms) } }];
  });
  const known = (req.page - 1) * limit + echos.length + (next ? 1 : 0);
  return { echos, pagination: { ...pagination(req.page, limit, known, next !== null), nextCursor: next ? encodeCursor(next) : null } };
}
