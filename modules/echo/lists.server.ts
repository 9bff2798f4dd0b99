// Echo lists: one batch per page (the total and the page), keyset underneath page/limit.
// Every order is total and stable: by id (= creation time, ties impossible), or by likes then id.
import { badRequest, CURSOR_INVALID, encodeCursor, idCeil, idFloor, pagination, rangeEnd, rangeStart } from "../shared/index";
import type { Placeholder } from "drizzle-orm";
import { authorVisible, moderationVisible, wordsVisible, batch, listCursor, prepared, sql, tables, type AppContext, type SQL, select, type Select } from "../shared/index.server";
import { echoColumns, toEcho, type EchoRow } from "./echo-row.server";
import { normalizeTag, TIMEFRAME_MS, type EchoPage, type TagOrder, type Timeframe } from "./schema";

/** A tag from a URL or query: normalised; anything unsafe simply matches nothing. */
const normalizeTagSafe = (raw: string) => normalizeTag(raw).slice(0, 100);

export type PageRequest = { page: number; limit: number; cursor?: string };

type Order = "newest" | "oldest" | "likes";

/** The keyset condition that starts after the cursor (or, without one, an OFFSET). */
export function seek(order: Order, idCol: string, likesCol: string, req: PageRequest): { where: SQL; offset: number } {
  const key = listCursor(req);
  if (!key) return { where: sql.raw("1"), offset: (req.page - 1) * req.limit };
  if (order === "newest") return { where: sql`${sql.raw(idCol)} < ${key.id}`, offset: 0 };
  if (order === "oldest") return { where: sql`${sql.raw(idCol)} > ${key.id}`, offset: 0 };
  // most liked needs the like count the cursor of that order carries
  if (key.l === undefined) throw badRequest(CURSOR_INVALID);
  // a row-value comparison: SQLite seeks the (likes, id) index straight to the cursor
  return { where: sql`(${sql.raw(likesCol)}, ${sql.raw(idCol)}) < (${key.l}, ${key.id})`, offset: 0 };
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

/** All echos, newest first, and their counter (muted words: the Home context, decision 028). */
const allEchosPage = newestPages(["viewerId"], "e.id", (v, where) =>
  select(echoColumns(v.viewerId, "home"), sql`FROM echos e JOIN users u ON u.id = e.author_id
    WHERE ${where} AND ${authorVisible(v.viewerId, "e.author_id")} AND ${wordsVisible(v.viewerId, "home")} AND ${moderationVisible(v.viewerId, "e.author_id", "e.id", "public")} ORDER BY e.id DESC LIMIT ${v.limit} OFFSET ${v.offset}`),
);
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
  let count: Total;
  let page: Select<EchoRow>;
  if (filter.tag !== undefined) {
    const tag = normalizeTagSafe(filter.tag);
    const { where, offset } = seek("newest", "et.echo_id", "et.likes_count", req);
    const byUser = filter.user ? sql`AND e.author_id = ${filter.user}` : sql.raw("");
    count = filter.user
      ? select({ n: sql<number>`COUNT(*)` }, sql`FROM echo_tags et JOIN echos e ON e.id = et.echo_id WHERE et.tag = ${tag} ${byUser}`)
      : tagTotal(tag);
    page = select(cols, sql`FROM echo_tags et JOIN echos e ON e.id = et.echo_id JOIN users u ON u.id = e.author_id
      WHERE et.tag = ${tag} ${byUser} AND ${where} AND ${authorVisible(viewerId, "e.author_id")} AND ${wordsVisible(viewerId, "tags")} AND ${moderationVisible(viewerId, "e.author_id", "e.id", filter.user ? "personal" : "public")} ORDER BY et.echo_id DESC LIMIT ${req.limit + 1} OFFSET ${offset}`);
  } else if (filter.user !== undefined) {
    const { where, offset } = seek("newest", "e.id", "e.likes_count", req);
    count = select({ n: sql<number>`COALESCE((SELECT ${tables.users.echosCount} FROM users WHERE ${tables.users.id} = ${filter.user}), 0)` }, sql``);
    page = select(cols, sql`FROM echos e JOIN users u ON u.id = e.author_id
      WHERE e.author_id = ${filter.user} AND ${where} AND ${authorVisible(viewerId, "e.author_id")} AND ${moderationVisible(viewerId, "e.author_id", "e.id", "personal")} ORDER BY e.id DESC LIMIT ${req.limit + 1} OFFSET ${offset}`);
  } else {
    count = echosTotal({});
    page = allEchosPage({ viewerId }, req);
  }
  const [counts, rows] = await batch(app.db, [count, page]);
  return shape(rows, req, counts[0]?.n ?? 0, "newest");
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
  const { where, offset } = seek(query.orderBy, "et.echo_id", "et.likes_count", req);
  const windowed = from !== undefined || to !== undefined;
  // all time: the tag's counter; a time window: no COUNT over it (a lower bound, like feeds)
  const count = tagTotal(tag);
  const page = select(echoColumns(viewerId, "tags"), sql`FROM echo_tags et JOIN echos e ON e.id = et.echo_id JOIN users u ON u.id = e.author_id
    WHERE et.tag = ${tag} ${range} AND ${where} AND ${authorVisible(viewerId, "e.author_id")} AND ${wordsVisible(viewerId, "tags")} AND ${moderationVisible(viewerId, "e.author_id", "e.id", "public")}
    ORDER BY ${sql.raw(ORDER_BY[query.orderBy]("et.echo_id", "et.likes_count"))}
    LIMIT ${req.limit + 1} OFFSET ${offset}`);
  const [counts, rows] = await batch(app.db, [count, page]);
  return shape(rows, req, windowed ? knownTotal(rows, req) : (counts[0]?.n ?? 0), query.orderBy);
}
