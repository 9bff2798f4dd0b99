// Lists of scrolls: the viewer's own and followed ones (GET /scroll/all, the sidebar, the picker's
// stored choice), a profile's created and followed ones, and the community lists.
import { encodeCursor, isId, notFound, pagination } from "../shared/index";
import { authorVisible, batch, columns, listCursor, pageRequest, prepared, select, sql, tables, type AppContext } from "../shared/index.server";
import type { PageRequest } from "../echo/index.server";
import { learnIndexes, scrollIndexState } from "./feed-index.server";
import { scrollColumns, scrollSelect, toScroll } from "./rows.server";
import type { Scroll } from "./schema";

/**
 * GET /scroll/all: with no parameters, all of the viewer's scrolls up to 95 (product decisions say
 * 100: the spec's client reads the list once and never pages it; 95 keeps the page within 200
 * rows read, below), newest first; `limit` 1–95 and a cursor page beyond. The shell's sidebar reads the first MY_SCROLLS_SIDEBAR on every document.
 *
 * Rows read (Server-Timing; decision 007, "Scroll lists"): one per own scroll (the creator index
 * walk reads the row), two per followed scroll (its scroll_follows entry, then the row), nothing
 * for names (stored with the scroll) or the follow state (own: never; followed: always), plus
 * the merge's look-ahead and the session check (3): 2 × (limit + 1) + 3 at worst. A page of 100
 * followed scrolls read 205 (issue 28); one of 95 reads 195, of 95 own scrolls 100.
 */
export const MY_SCROLLS_LIMIT = 95;
export const MY_SCROLLS_MAX = 95;
export const MY_SCROLLS_SIDEBAR = 10;

export type MyScrollsPage = { scrolls: Scroll[]; nextCursor: string | null };

// One statement, one merge: each side walks its own index backwards (creator_id, id and
// user_id, scroll_id) and SQLite merges the two ordered streams (MERGE (UNION ALL), no sort),
// stopping at the page's end, so neither side reads more than the page needs. The own side reads
// each row through its index walk; the followed side seeks each row from its follow entry (a
// LIMIT of its own would make SQLite sort it: measured, 284 rows instead of 183). Privacy is
// checked on the row: making a scroll private drops its followers, so a followed private scroll
// does not occur. Every signed-in page's sidebar runs it: rendered once (`prepared`).
const myScrollsStatement = prepared(["viewerId", "before", "take"], (v) => {
  const own = scrollColumns(v.viewerId, sql<number>`0`);
  // same columns in the same order; the id from the follow entry, so its index gives the order
  const followed = { ...scrollColumns(v.viewerId, sql<number>`1`), id: sql<string>`f.scroll_id` };
  return select(
    own,
    sql`FROM scrolls s WHERE s.creator_id = ${v.viewerId} AND s.id < ${v.before}
    UNION ALL
    SELECT ${columns(followed)} FROM scroll_follows f JOIN scrolls s ON s.id = f.scroll_id
      WHERE f.user_id = ${v.viewerId} AND f.scroll_id < ${v.before} AND s.is_private = 0
        AND ${authorVisible(v.viewerId, "s.creator_id")}
    ORDER BY 1 DESC LIMIT ${v.take}`,
  );
});

/**
 * Own scrolls plus the public scrolls the viewer follows (product decisions), newest first, one
 * page at a time by keyset cursor (the last id). A creator of hundreds of scrolls reads one page,
 * not all of them.
 */
export async function listMyScrolls(
  app: AppContext,
  viewerId: string,
  { cursor = null, limit = MY_SCROLLS_SIDEBAR }: { cursor?: string | null; limit?: number } = {},
): Promise<MyScrollsPage> {
  const before = cursor ?? "~"; // ids are lower-case base32: every id sorts below "~"
  const take = limit + 1; // one more says whether another page exists
  const [rows] = await batch(app.db, [myScrollsStatement({ viewerId, before, take })]);
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor({ id: last.id }) : null;
  return { scrolls: shown.map((r) => toScroll(r, viewerId)), nextCursor };
}

/**
 * Scrolls per page of /scrolls (own and followed, merged as GET /scroll/all does: at most
 * 2 × 51 + 3 rows) and of /scrolls/feeds and /scrolls/curations (own of one type: 51 rows);
 * with the layout's sidebar (≤ 23) a page stays within 200 rows (issue 28: they read every
 * scroll of their viewer). Older ones are a cursor away ("Older scrolls").
 */
export const SCROLLS_PAGE = 50;

/** The viewer's own scrolls of one type, newest first, a page by keyset cursor (index scrolls_creator_type). */
export async function listMyScrollsOfType(
  app: AppContext,
  viewerId: string,
  type: "feed" | "curation",
  { cursor = null, limit = SCROLLS_PAGE }: { cursor?: string | null; limit?: number } = {},
): Promise<MyScrollsPage> {
  const before = cursor ?? "~"; // ids are lower-case base32: every id sorts below "~"
  const [rows] = await batch(app.db, [
    scrollSelect(viewerId, sql`WHERE s.creator_id = ${viewerId} AND s.type = ${type} AND s.id < ${before} ORDER BY s.id DESC LIMIT ${limit + 1}`),
  ]);
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor({ id: last.id }) : null;
  return { scrolls: shown.map((r) => toScroll(r, viewerId)), nextCursor };
}

/** GET /scroll/all's query: an opaque cursor (bad ones are a 400) and a limit clamped to 1..95 (default 95). */
export function myScrollsQuery(request: Request): { cursor: string | null; limit: number } {
  const query = pageRequest(request, MY_SCROLLS_LIMIT, MY_SCROLLS_MAX);
  return { cursor: listCursor(query)?.id ?? null, limit: Math.min(MY_SCROLLS_MAX, query.limit) };
}

/** One scroll by id if it is the viewer's or followed by them (the stored picker choice). */
export async function findMyScroll(app: AppContext, viewerId: string, id: string): Promise<Scroll | null> {
  if (!isId(id)) return null;
  const mine = sql`s.id = ${id} AND (s.creator_id = ${viewerId} OR (s.is_private = 0 AND EXISTS
    (SELECT 1 FROM scroll_follows f WHERE f.scroll_id = s.id AND f.user_id = ${viewerId})))`;
  // with its rule's built index: the home page reads the scroll's first page next, from the index
  const [rows, index] = await batch(app.db, [scrollSelect(viewerId, sql`WHERE ${mine}`), scrollIndexState(id)]);
  learnIndexes(index);
  return rows[0] ? toScroll(rows[0], viewerId) : null;
}

/**
 * Profile scrolls: those a user created (others see only public ones) or follows (public).
 * Created: the creator index, one row per scroll (two when the viewer follows it), counted by the
 * user's counter. Saved: the user's follow entries newest first, then each scroll by its key
 * (three rows per scroll when the viewer follows it too), so its largest page is
 * SAVED_SCROLLS_MAX and its total what is known so far (no count over the follows: 100 followed
 * scrolls read 645 rows with the count and an IN list, issue 28).
 */
export async function listUserScrolls(
  app: AppContext,
  viewerId: string,
  userId: string,
  type: "created" | "saved",
  req: PageRequest,
): Promise<{ scrolls: Scroll[]; pagination: ReturnType<typeof pagination> }> {
  if (!isId(userId)) throw notFound("User not found");
  req = { ...req, limit: Math.min(req.limit, type === "saved" ? SAVED_SCROLLS_MAX : PUBLIC_SCROLLS_MAX) };
  // pages go on by cursor (the last scroll's id), or by page number
  const after = listCursor(req);
  const offset = after ? 0 : (req.page - 1) * req.limit;
  const page = sql`ORDER BY s.id DESC LIMIT ${req.limit + 1} OFFSET ${offset}`;
  const { users } = tables;
  // a creator the viewer does not see (a block either way, a mute: decision 026) shows no scrolls
  const created = sql`s.creator_id = ${userId} AND ${userId === viewerId ? sql`1` : sql`s.is_private = 0 AND ${authorVisible(viewerId, "s.creator_id")}`}`;
  const [counts, rows] = await batch(app.db, [
    type === "created"
      ? select({ n: userId === viewerId ? users.scrollsCount : users.publicScrollsCount }, sql`FROM users WHERE id = ${userId}`)
      : select({ n: sql<number>`NULL` }, sql``),
    type === "created"
      ? scrollSelect(viewerId, sql`WHERE ${created} ${after ? sql`AND s.id < ${after.id}` : sql``} ${page}`)
      : select(
          scrollColumns(viewerId),
          sql`FROM scroll_follows sf CROSS JOIN scrolls s ON s.id = sf.scroll_id
            WHERE sf.user_id = ${userId} AND s.is_private = 0 AND ${authorVisible(viewerId, "s.creator_id")}
              AND ${authorVisible(viewerId, sql`${userId}`)} ${after ? sql`AND sf.scroll_id < ${after.id}` : sql``}
            ORDER BY sf.scroll_id DESC LIMIT ${req.limit + 1} OFFSET ${offset}`,
        ),
  ]);
  const scrolls = rows.slice(0, req.limit).map((r) => toScroll(r, viewerId));
  const hasMore = rows.length > req.limit;
  const nextCursor = hasMore ? encodeCursor({ id: scrolls[scrolls.length - 1]!._id }) : null;
  const total = counts[0]?.n ?? offset + scrolls.length + (hasMore ? 1 : 0);
  return { scrolls, pagination: { ...pagination(req.page, req.limit, total, hasMore), nextCursor } };
}

/** The largest page of a profile's saved (followed) scrolls: 61 × 3 rows at worst. */
export const SAVED_SCROLLS_MAX = 60;

/**
 * The most scrolls a community list or a profile's scrolls answer at once. Rows read per scroll
 * (decision 007, "Scroll lists"): its row through the index walk (1) and, when the viewer follows
 * it, its scroll_follows entry (1); names are stored with the scroll. 80 scrolls: at most 160
 * rows, and a document's layout (the session, the sidebar's 10 scrolls: at most 23) stays within
 * 200 too (/browse/scrolls asks for 100 and shows 80).
 */
export const PUBLIC_SCROLLS_MAX = 80;

/** Newest public scrolls of a type (community lists); never private ones. */
export async function listPublicScrolls(app: AppContext, viewerId: string, type: "feed" | "curation", limit: number): Promise<Scroll[]> {
  // scrolls of creators the viewer does not see leave the list, which still fills (in the WHERE)
  const filter = sql`s.type = ${type} AND s.is_private = 0 AND ${authorVisible(viewerId, "s.creator_id")}`;
  const [rows] = await batch(app.db, [scrollSelect(viewerId, sql`WHERE ${filter} ORDER BY s.id DESC LIMIT ${limit}`)]);
  return rows.map((r) => toScroll(r, viewerId));
}
