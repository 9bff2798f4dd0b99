import * as v from "valibot";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** Deeper pages are refused: their OFFSET would overflow SQLite's integer (a 500 before). */
export const MAX_PAGE = 1_000_000;

/** page and limit from a query string: bad values fall back, limit is clamped to 1..100. */
export const PageQuerySchema = v.object({
  page: v.optional(
    v.pipe(v.string(), v.transform(Number), v.number(), v.integer("page must be a whole number"), v.minValue(1, "page must be 1 or more"), v.maxValue(MAX_PAGE, `page must be at most ${MAX_PAGE}`)),
  ),
  limit: v.optional(v.pipe(v.string(), v.transform(Number), v.number("limit must be a number"), v.integer("limit must be a whole number"))),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(200, "cursor is invalid"))),
});

export type Pagination = { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };

export function clampLimit(limit: number | undefined, fallback = DEFAULT_LIMIT): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(MAX_LIMIT, Math.max(1, Math.trunc(limit)));
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
