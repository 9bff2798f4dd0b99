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
 * The largest page of each API list that reads several rows per echo, so that its largest page
 * (look-ahead row and session check included) stays within 200 rows read (issue 28). Per echo a
 * list reads the echo, its author and, when the viewer liked it, the like (isLiked), plus the tag,
 * timeline, curation or search row that lists it; the rows per echo at worst (every echo liked)
 * are in parentheses (docs/product-notes.md "Page sizes"). Other lists keep MAX_LIMIT.
 */
export const LIST_MAX_LIMIT = {
  /** All echos, also one author's (3: echo, author, like) */
  allEchos: 60,
  /** A tag's echos, also All echos by tag (4: tag row, echo, author, like) */
  tagEchos: 45,
  /** A scroll's echos: a curation's (4: entry, echo, author, like), a feed's */
  scrollEchos: 45,
  /** Following (5: timeline row, echo, author, like, the follow that keeps it) */
  following: 35,
  /** A profile's echos (2: echo, like; the author is read once) */
  profileEchos: 90,
  /** Search: its 61-row window, then 3–4 per echo; divides the 60-match window (docs/product-notes.md, Search) */
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
