import * as v from "valibot";
import { ID_PATTERN } from "./ids";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** Deeper pages are refused: their OFFSET would overflow SQLite's integer (a 500 before). */
export const MAX_PAGE = 1_000_000;
/**
 * The deepest OFFSET a page number may jump to (rows skipped), on lists without a LIST_MAX_LIMIT
 * of their own; those also stop at offset + limit ≤ their largest page (pageRequest), as a
 * skipped echo costs what a listed one does. Deeper numbered pages are served from the
 * page before's cursor (page-bookmarks.server.ts) or refused, naming the cursor.
 */
export const MAX_JUMP_OFFSET = 60;

/**
 * Page sizes, from rows per echo (issue 28; decision 027, "Pages sized by rows per echo"). Every
 * echo a list shows reads, at worst, ECHO_ROWS rows (echo-row.server.ts): the echo, its author,
 * the viewer's like and the viewer's repost (each probe reads a row only when it finds one), and
 * for a quote the quoted echo (its author's name is kept on the quote: migration 0031). A list
 * adds the row that lists it (tag, curation entry, timeline entry…). A page reads its items and
 * the look-ahead item, plus at most PAGE_FIXED_ROWS of its own (the session check, the viewer's
 * hidden set, the moderation set, muted words, a count), and is planned for PAGE_ROW_TARGET: the
 * 200-row budget less headroom (a repost's probe, a list's own extra lookups).
 */
export const ECHO_ROWS = 5;
export const PAGE_FIXED_ROWS = 10;
export const PAGE_ROW_TARGET = 190;

/** The largest page of a list whose items read `perItem` rows at worst (its look-ahead item included). */
export const largestPage = (perItem: number, fixed = PAGE_FIXED_ROWS): number => Math.floor((PAGE_ROW_TARGET - fixed) / perItem) - 1;

/**
 * What a feed page from the engine may spend on candidates (index entries in its window, about 3
 * rows each): what its `limit` echos and look-ahead (ECHO_ROWS each) and `fixed` rows of its own
 * leave of PAGE_ROW_TARGET (feed-rules.server.ts, windowSize). 75 for a screen's 20.
 */
export const candidateRowsFor = (limit: number, fixed = PAGE_FIXED_ROWS): number => PAGE_ROW_TARGET - fixed - (limit + 1) * ECHO_ROWS;

/** Rows an engine window's entry costs at most before its tests (the entry, its numbering). */
const WINDOW_ENTRY_ROWS = 3;

/**
 * The largest page of each API list that reads several rows per echo: asked for more, a list
 * answers this many, full (docs/product-notes.md "Page sizes", measured in
 * tests/api/worst-case-quotes.test.ts). Other lists keep MAX_LIMIT.
 */
export const LIST_MAX_LIMIT = {
  /** All echos (5 an echo): 35 */
  allEchos: largestPage(ECHO_ROWS),
  /** A tag's echos, also All echos by tag (6: the tag row, then the echo's 5): 29 */
  tagEchos: largestPage(ECHO_ROWS + 1),
  /**
   * A scroll's echos, a curation's (6 an echo: the entry, then the echo's 5) or a feed's: the
   * largest page whose engine window still holds the page (one window entry per echo, at 3 rows,
   * beside the echo's 5): 21
   */
  scrollEchos: Math.min(largestPage(ECHO_ROWS + 1), largestPage(ECHO_ROWS + WINDOW_ENTRY_ROWS)),
  /** Following (8: the timeline entry, a repost's row and the follow probe of its reposter, then the echo's 5): 21 */
  following: largestPage(ECHO_ROWS + 3),
  /** A profile's echos, also All echos of one author (4: the author is read once): 44 */
  profileEchos: largestPage(ECHO_ROWS - 1),
  /** Search: its 61-row window, then the echo's rows (no author row twice); divides the 60-match window (docs/product-notes.md, Search) */
  searchEchos: 30,
} as const;

export const tooDeepMessage = (page: number) =>
  `page ${page} is too deep to jump to: ask for the pages before it in order, or pass cursor (pagination.nextCursor of page ${page - 1})`;

/** page and limit from a query string: bad values fall back, limit is clamped to 1..100. */
export const PageQuerySchema = v.object({
  page: v.optional(
    v.pipe(v.string(), v.transform(Number), v.number(), v.integer("page must be a whole number"), v.minValue(1, "page must be 1 or more"), v.maxValue(MAX_PAGE, `page must be at most ${MAX_PAGE}`)),
  ),
  limit: v.optional(v.pipe(v.string(), v.transform(Number), v.number("limit must be a number"), v.integer("limit must be a whole number"))),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(200, "cursor is invalid"))),
});

export type Pagination = {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasMore: boolean;
  /** the next page's cursor, on keyset lists (null on the last page) */
  nextCursor?: string | null;
};

export function clampLimit(limit: number | undefined, fallback = DEFAULT_LIMIT, max: number = MAX_LIMIT): number {
  if (limit === undefined || !Number.isFinite(limit)) return Math.min(fallback, max);
  return Math.min(max, Math.max(1, Math.trunc(limit)));
}

/**
 * A list's total as far as it is known without counting every match (feeds, the timeline, a
 * preview's pages; docs/decisions/007-round-trips-and-rows.md): the echos up to the end of this
 * page, plus one when more exist.
 */
export const knownSoFar = (page: number, limit: number, shown: number, hasMore: boolean): number => (page - 1) * limit + shown + (hasMore ? 1 : 0);

export function pagination(page: number, limit: number, total: number, hasMore: boolean): Pagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit), hasMore };
}

/** Opaque keyset cursors: base64url of the last row's sort key. */
export function encodeCursor(key: Record<string, string | number>): string {
  return btoa(JSON.stringify(key)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function decodeCursor(cursor: string | undefined): Record<string, unknown> | null {
  if (!cursor) return null;
  try {
    const value = JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/")));
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

export const CURSOR_INVALID = "cursor is invalid";

/**
 * The one cursor schema of every list: a cursor is base64url JSON of the page's last sort key
 * (encodeCursor), and `key` says which fields that list's key has. Anything else (too long, not
 * base64url JSON, another list's key, a value the list would not have written) is the same clear
 * 400, "cursor is invalid": the feed engine writes a cursor's values into its SQL as literals.
 */
export function cursorSchema<T>(key: v.GenericSchema<unknown, T>) {
  return v.pipe(v.string(CURSOR_INVALID), v.maxLength(200, CURSOR_INVALID), v.transform((cursor): unknown => decodeCursor(cursor)), key);
}

/** A whole number within JavaScript's safe range, `min` or more, as a cursor field. */
export const cursorInteger = (min: number) =>
  v.pipe(v.number(CURSOR_INVALID), v.safeInteger(CURSOR_INVALID), v.minValue(min, CURSOR_INVALID));

/**
 * The key of every keyset list of echos and scrolls: the last row's id, for most-liked orders
 * its like count (`l`), for a curation when it was added (`a`).
 */
export const ListCursorSchema = cursorSchema(
  v.object(
    { id: v.pipe(v.string(CURSOR_INVALID), v.regex(ID_PATTERN, CURSOR_INVALID)), l: v.optional(cursorInteger(0)), a: v.optional(cursorInteger(0)) },
    CURSOR_INVALID,
  ),
);
export type ListCursor = v.InferOutput<typeof ListCursorSchema>;
