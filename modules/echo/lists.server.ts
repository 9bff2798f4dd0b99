// Echo lists: one batch per page (the total and the page), keyset underneath page/limit.
// Every order is total and stable: by id (= creation time, ties impossible), or by likes then id.
import { badRequest, CURSOR_INVALID, encodeCursor, idCeil, idFloor, pagination, rangeEnd, rangeStart } from "../shared/index";
import type { Placeholder } from "drizzle-orm";
import { authorVisible, moderationVisible, wordsVisible, batch, listCursor, prepared, sql, tables, type AppContext, type SQL, select, type Select } from "../shared/index.server";
import { echoColumns, toEcho, type EchoRow } from "./echo-row.server";
import { scanWindow, windowPage, type Key, type ListRows, type Probe, type Refill, type WindowAsk } from "./scan-window.server";
import { normalizeTag, TIMEFRAME_MS, type EchoPage, type TagOrder, type Timeframe } from "./schema";

/** A tag from a URL or query: normalised; anything unsafe simply matches nothing. */
const normalizeTagSafe = (raw: string) => normalizeTag(raw).slice(0, 100);

export type PageRequest = { page: number; limit: number; cursor?: string };

type Order = "newest" | "oldest" | "likes";

/** The keyset condition that starts after the cursor (or, without one, an OFFSET). */
export function seek(order: Order, idCol: string, likesCol: string, req: PageRequest): { where: SQL; offset: number; key: Key | null } {
  const key = listCursor(req);
  if (!key) return { where: sql.raw("1"), offset: (req.page - 1) * req.limit, key: null };
  return { where: after(order, idCol, likesCol, key), offset: 0, key };
}

/** The rows after a key in the list's order. */
function after(order: Order, idCol: string, likesCol: string, key: Key | null): SQL {
  if (!key) return sql.raw("1");
  if (order === "newest") return sql`${sql.raw(idCol)} < ${key.id}`;
  if (order === "oldest") return sql`${sql.raw(idCol)} > ${key.id}`;
  // most liked needs the like count the cursor of that order carries
  if (key.l === undefined) throw badRequest(CURSOR_INVALID);
  // a row-value comparison: SQLite seeks the (likes, id) index straight to the cursor
  return sql`(${sql.raw(likesCol)}, ${sql.raw(idCol)}) < (${key.l}, ${key.id})`;
}

type PageSlots<K extends string> = Record<K | "limit" | "offset", Placeholder>;

/**
 * A newest-first list's page statement in its two shapes, from the top (an OFFSET) or below a
 * cursor's id (`idCol`), each rendered once per isolate: `frame` writes the statement around the
 * keyset condition, with `limit` and `offset` slots. Home and the all-echos API build the same
 * statements on every request, and Drizzle's rendering was a measurable part of them (issue 15).
 */
export function newestPages<const K extends string, R>(
  names: readonly K[],
  idCol: string,
  frame: (slots: PageSlots<K>, where: SQL) => Select<R>,
): (values: Record<K, unknown>, req: PageRequest) => Select<R> {
  const top = prepared([...names, "limit", "offset"], (v) => frame(v as PageSlots<K>, sql.raw("1")));
  const below = prepared([...names, "limit", "offset", "id"], (v) => frame(v as PageSlots<K>, sql`${sql.raw(idCol)} < ${v.id}`));
  return (values, req) => {
    const key = listCursor(req);
    const limit = req.limit + 1;
    return key ? below({ ...values, limit, offset: 0, id: key.id }) : top({ ...values, limit, offset: (req.page - 1) * req.limit });
  };
}

/**
 * All echos, newest first, and their counter (muted words: the Home context, decision 028). The
 * candidates are a scan window (scan-window.server.ts): 1 row each, a shown echo 2 more at
 * worst (its author, the viewer's like).
 */
const ALL_ROWS = { perCandidate: 1, perShown: 2 };
const allEchosFrame = (v: PageSlots<"viewerId" | "window">, where: SQL) =>
  select(echoColumns(v.viewerId, "home"), sql`FROM (SELECT * FROM echos e WHERE ${where} ORDER BY e.id DESC LIMIT ${v.window}) e JOIN users u ON u.id = e.author_id
    WHERE ${authorVisible(v.viewerId, "e.author_id")} AND ${wordsVisible(v.viewerId, "home")} AND ${moderationVisible(v.viewerId, "e.author_id", "e.id", "public")} ORDER BY e.id DESC LIMIT ${v.limit} OFFSET ${v.offset}`);
const allEchosTop = prepared(["viewerId", "window", "limit", "offset"], (v) => allEchosFrame(v as PageSlots<"viewerId" | "window">, sql.raw("1")));
const allEchosBelow = prepared(["viewerId", "window", "limit", "offset", "id"], (v) =>
  allEchosFrame(v as PageSlots<"viewerId" | "window">, sql`e.id < ${v.id}`),
);
/** The probe of All's candidates (scan-window.server.ts): by the primary key, 1 row each. */
const allEchosProbe: Probe = (from, skip) =>
  select({ id: sql<string>`e.id` }, sql`FROM echos e WHERE ${after("newest", "e.id", "", from)} ORDER BY e.id DESC LIMIT 1 OFFSET ${skip}`);
/** All's last candidate (the oldest echo): 1 row, the index's other end. */
const allEchosTail = prepared([], () => select({ id: sql<string>`e.id` }, sql`FROM echos e ORDER BY e.id ASC LIMIT 1`));
const echosTotal = prepared([], () => select({ n: tables.stats.value }, sql`FROM stats WHERE key = 'echos'`));

const ORDER_BY: Record<Order, (idCol: string, likesCol: string) => string> = {
  newest: (id) => `${id} DESC`,
  oldest: (id) => `${id} ASC`,
  likes: (id, likes) => `${likes} DESC, ${id} DESC`,
};

export function shape(rows: EchoRow[], req: PageRequest, total: number, order: Order): EchoPage {
  const hasMore = rows.length > req.limit;
  const page = rows.slice(0, req.limit).map(toEcho);
  const last = page[page.length - 1];
  const nextCursor =
    hasMore && last ? encodeCursor(order === "likes" ? { l: last.likes, id: last._id } : { id: last._id }) : null;
  return { echos: page, pagination: { ...pagination(req.page, req.limit, total, hasMore), nextCursor } };
}

/** A list without a counter: the total known so far (this page, and one more if there is more). */
export const knownTotal = (rows: unknown[], req: PageRequest) =>
  (req.page - 1) * req.limit + Math.min(rows.length, req.limit) + (rows.length > req.limit ? 1 : 0);

/** A list's total: one number, from a counter where one keeps it. */
type Total = Select<{ n: number }>;

/** A tag's echo count (its counter; 0 for a tag nobody used). */
const tagTotal = (tag: string): Total =>
  select({ n: sql<number>`COALESCE((SELECT ${tables.tags.echoCount} FROM tags WHERE ${tables.tags.name} = ${tag}), 0)` }, sql``);

/** GET /echo/all: every echo newest first, optionally one author's or one tag's. */
export async function listEchos(
  app: AppContext,
  viewerId: string,
  filter: { user?: string; tag?: string },
  req: PageRequest,
): Promise<EchoPage> {
  // muted words (decision 028): a tag's echos are the Tags context; one author's (a profile) are
  // not filtered — the viewer went to that person
  const cols = echoColumns(viewerId, filter.tag !== undefined ? "tags" : undefined);
  const { where, offset, key } = seek("newest", filter.tag !== undefined ? "et.echo_id" : "e.id", "", req);
  if (filter.tag !== undefined) {
    const tag = normalizeTagSafe(filter.tag);
    const byUser = filter.user ? sql`AND e.author_id = ${filter.user}` : sql.raw("");
    const count = filter.user
      ? select({ n: sql<number>`COUNT(*)` }, sql`FROM echo_tags et JOIN echos e ON e.id = et.echo_id WHERE et.tag = ${tag} ${byUser}`)
      : tagTotal(tag);
    // one author's echos of a tag read the echo in the window too (3 rows a candidate)
    // (and its probe the link and the echo: 2)
    const rowsOf = filter.user ? { ...TAG_ROWS, perCandidate: 3, perProbed: 2 } : TAG_ROWS;
    // one author's echos of a tag: the author is tested on the echo, so the window is over both
    const pageOf = (where: SQL, window: number, take: number, offset: number) => {
      const candidates = filter.user
        ? sql`(SELECT et.* FROM echo_tags et JOIN echos e ON e.id = et.echo_id WHERE et.tag = ${tag} ${byUser} AND ${where} ORDER BY et.echo_id DESC LIMIT ${window}) et`
        : sql`(SELECT * FROM echo_tags et WHERE et.tag = ${tag} AND ${where} ORDER BY et.echo_id DESC LIMIT ${window}) et`;
      return select(cols, sql`FROM ${candidates} JOIN echos e ON e.id = et.echo_id JOIN users u ON u.id = e.author_id
        WHERE ${linkVisible(viewerId, filter.user ? "personal" : "public")} AND ${wordsVisible(viewerId, "tags")} ORDER BY et.echo_id DESC LIMIT ${take} OFFSET ${offset}`);
    };
    const probe: Probe = (from, skip) =>
      select({ id: sql<string>`et.echo_id` }, sql`FROM echo_tags et ${filter.user ? sql`JOIN echos e ON e.id = et.echo_id` : sql.raw("")}
        WHERE et.tag = ${tag} ${byUser} AND ${after("newest", "et.echo_id", "", from)} ORDER BY et.echo_id DESC LIMIT 1 OFFSET ${skip}`);
    const tail = select({ id: sql<string>`et.echo_id` }, sql`FROM echo_tags et ${filter.user ? sql`JOIN echos e ON e.id = et.echo_id` : sql.raw("")}
      WHERE et.tag = ${tag} ${byUser} ORDER BY et.echo_id ASC LIMIT 1`);
    const window = scanWindow(req.limit, offset, rowsOf.perCandidate, rowsOf.perShown);
    return windowed(app, [count, pageOf(where, window, req.limit + 1, offset), tail], { req, start: key, offset, window, rowsOf, probe }, (from, w, take) =>
      pageOf(after("newest", "et.echo_id", "", from), w, take, 0),
    );
  }
  if (filter.user !== undefined) {
    const user = filter.user;
    const count = select({ n: sql<number>`COALESCE((SELECT ${tables.users.echosCount} FROM users WHERE ${tables.users.id} = ${user}), 0)` }, sql``);
    // the author's name once (an uncorrelated subquery), not a join probed per echo: a join
    // after the window's co-routine would read the author for each row (45 rows, not 25, a page of 20)
    const named = { ...cols, userName: sql<string>`(SELECT user_name FROM users WHERE id = ${user})` };
    const pageOf = (where: SQL, window: number, take: number, offset: number) =>
      select(named, sql`FROM (SELECT * FROM echos e WHERE e.author_id = ${user} AND ${where} ORDER BY e.id DESC LIMIT ${window}) e
        WHERE ${authorVisible(viewerId, "e.author_id")} AND ${moderationVisible(viewerId, "e.author_id", "e.id", "personal")} ORDER BY e.id DESC LIMIT ${take} OFFSET ${offset}`);
    const probe: Probe = (from, skip) =>
      select({ id: sql<string>`e.id` }, sql`FROM echos e WHERE e.author_id = ${user} AND ${after("newest", "e.id", "", from)} ORDER BY e.id DESC LIMIT 1 OFFSET ${skip}`);
    const tail = select({ id: sql<string>`e.id` }, sql`FROM echos e WHERE e.author_id = ${user} ORDER BY e.id ASC LIMIT 1`);
    const window = scanWindow(req.limit, offset, PROFILE_ROWS.perCandidate, PROFILE_ROWS.perShown);
    return windowed(app, [count, pageOf(where, window, req.limit + 1, offset), tail], { req, start: key, offset, window, rowsOf: PROFILE_ROWS, probe }, (from, w, take) =>
      pageOf(after("newest", "e.id", "", from), w, take, 0),
    );
  }
  const window = scanWindow(req.limit, offset, ALL_ROWS.perCandidate, ALL_ROWS.perShown);
  const page = key
    ? allEchosBelow({ viewerId, window, limit: req.limit + 1, offset: 0, id: key.id })
    : allEchosTop({ viewerId, window, limit: req.limit + 1, offset });
  return windowed(app, [echosTotal({}), page, allEchosTail({})], { req, start: key, offset, window, rowsOf: ALL_ROWS, probe: allEchosProbe }, (from, w, take) =>
    allEchosBelow({ viewerId, window: w, limit: take, offset: 0, id: from.id }),
  );
}

/** One author's candidates: the echo by its covering index, 1 row; a shown echo 1 more (the like). */
const PROFILE_ROWS = { perCandidate: 1, perShown: 1 };

/**
 * A tag's candidates: its link row and the echo, 2 rows each; a shown echo 2 more (author, like).
 * A link carries its echo's author (migration 0035), so a candidate whose author the viewer hides,
 * or a moderator limited, costs its link row only: linkVisible tests it on the link, and SQLite
 * places that test in the window's loop, before the join reads the echo (measured: the heavy
 * hider's tag page 171 → 113 rows at 75 % hidden). The window is still sized for the worst case
 * (every candidate's echo read); what the page did not spend goes to its fill (windowPage).
 */
const TAG_ROWS = { perCandidate: 2, perShown: 2 };

/** Whether a tag link's echo may show, by what the link holds (its author, its echo's id). */
const linkVisible = (viewerId: string, scope: "public" | "personal") =>
  sql`${authorVisible(viewerId, "et.author_id")} AND ${moderationVisible(viewerId, "et.author_id", "et.echo_id", scope)}`;

/** How a windowed page was asked for (scan-window.server.ts), and its request. */
type WindowedPage = Omit<WindowAsk, "limit" | "cost"> & { req: PageRequest; rowsOf: ListRows };

/**
 * A windowed list's page in one batch (its total, its page, its last candidate); a short page
 * with more is filled (windowPage, a second round trip), or, showing nothing, probed.
 */
async function windowed(
  app: AppContext,
  statements: [Total, Select<EchoRow>, Select<Key>],
  w: WindowedPage,
  refill: Refill<EchoRow>,
  order: Order = "newest",
  total?: (rows: EchoRow[], n: number) => number,
): Promise<EchoPage> {
  const [counts, first, tail] = await batch(app.db, statements);
  const { req } = w;
  const keyOf = (r: EchoRow): Key => (order === "likes" ? { l: r.likesCount, id: r.id } : { id: r.id });
  const { rows, ...more } = await windowPage(app, first, keyOf, tail[0], { ...w, limit: req.limit, cost: w.rowsOf }, refill);
  const n = counts[0]?.n ?? 0;
  const page = rows.slice(0, req.limit).map(toEcho);
  return { echos: page, pagination: { ...pagination(req.page, req.limit, total ? total(rows, n) : n, more.hasMore), nextCursor: more.nextCursor } };
}
/** Inclusive date bounds (rangeStart, rangeEnd: a date-only end is its whole day). */
export function dateBounds(
  timeframe: Timeframe,
  startDate: string | undefined,
  endDate: string | undefined,
  now = Date.now(),
): { from?: number; to?: number } {
  let from = timeframe === "all" ? undefined : now - TIMEFRAME_MS[timeframe];
  let to: number | undefined;
  if (startDate) {
    const s = rangeStart(startDate);
    from = from === undefined ? s : Math.max(from, s);
  }
  if (endDate) to = rangeEnd(endDate);
  return { from, to };
}

/** GET /echo/tag/{name}: a tag's echos in the chosen order and time window. */
export async function listTag(
  app: AppContext,
  viewerId: string,
  name: string,
  query: { orderBy: TagOrder; timeframe: Timeframe; startDate?: string; endDate?: string },
  req: PageRequest,
): Promise<EchoPage> {
  const tag = normalizeTagSafe(name);
  const { from, to } = dateBounds(query.timeframe, query.startDate, query.endDate);
  const range = sql`${from !== undefined ? sql`AND et.echo_id >= ${idFloor(from)}` : sql.raw("")}
    ${to !== undefined ? sql`AND et.echo_id <= ${idCeil(to)}` : sql.raw("")}`;
  const { where, offset, key } = seek(query.orderBy, "et.echo_id", "et.likes_count", req);
  const windowed_ = from !== undefined || to !== undefined;
  const window = scanWindow(req.limit, offset, TAG_ROWS.perCandidate, TAG_ROWS.perShown);
  const order = sql.raw(ORDER_BY[query.orderBy]("et.echo_id", "et.likes_count"));
  // all time: the tag's counter; a time window: no COUNT over it (a lower bound, like feeds)
  const count = tagTotal(tag);
  // most liked in a time window: the window's LIMIT made SQLite prefer the id range and a sort of
  // all of it (436 rows for a month); the (tag, likes) index walks in order and stops, as before
  const indexed = sql.raw(query.orderBy === "likes" ? "INDEXED BY echo_tags_tag_likes_tags" : "");
  const pageOf = (where: SQL, window: number, take: number, offset: number) =>
    select(echoColumns(viewerId, "tags"), sql`FROM (SELECT * FROM echo_tags et ${indexed} WHERE et.tag = ${tag} ${range} AND ${where} ORDER BY ${order} LIMIT ${window}) et
    JOIN echos e ON e.id = et.echo_id JOIN users u ON u.id = e.author_id
    WHERE ${linkVisible(viewerId, "public")} AND ${wordsVisible(viewerId, "tags")}
    ORDER BY ${order}
    LIMIT ${take} OFFSET ${offset}`);
  const probe: Probe = (from, skip) =>
    select({ id: sql<string>`et.echo_id`, l: sql<number>`et.likes_count` }, sql`FROM echo_tags et
      WHERE et.tag = ${tag} ${range} AND ${after(query.orderBy, "et.echo_id", "et.likes_count", from)} ORDER BY ${order} LIMIT 1 OFFSET ${skip}`);
  const reversed = sql.raw(query.orderBy === "likes" ? "et.likes_count ASC, et.echo_id ASC" : query.orderBy === "newest" ? "et.echo_id ASC" : "et.echo_id DESC");
  const tail = select({ id: sql<string>`et.echo_id` }, sql`FROM echo_tags et WHERE et.tag = ${tag} ${range} ORDER BY ${reversed} LIMIT 1`);
  const refill: Refill<EchoRow> = (from, w, take) => pageOf(after(query.orderBy, "et.echo_id", "et.likes_count", from), w, take, 0);
  const asked = { req, start: key, offset, window, rowsOf: TAG_ROWS, probe };
  return windowed(app, [count, pageOf(where, window, req.limit + 1, offset), tail], asked, refill, query.orderBy, (rows, n) => (windowed_ ? knownTotal(rows, req) : n));
}
