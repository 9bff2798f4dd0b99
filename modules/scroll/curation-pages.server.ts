// A curation's pages of echos (spec §3): newest-added first, by (added_at, echo id) cursor or by
// page number, the candidates a scan window (echo module, scan-window.server.ts). A page may be
// sent before the scroll's type is known (pages.server.ts's guess): every statement here reads
// only a curation the viewer may see.
import { alias } from "drizzle-orm/sqlite-core";
import { type ListCursor } from "../shared/index";
import { authorVisible, moderationVisible, wordsVisible, batch, sql, type AppContext, prepared, select, tables } from "../shared/index.server";
import { echoColumns, scanWindow, windowPage, type PageRequest, type Probe } from "../echo/index.server";
import { echoPage } from "./rows.server";
import type { ScrollEchoPage } from "./schema";

const scrollEchoAlias = alias(tables.scrollEchos, "se");

/** A page of a curation by (added_at, echo id) cursor or without one: rendered once. */
// It reads only a curation the viewer may see (public, or theirs): scrollEchos asks for a page
// before it knows the scroll's type and privacy, in the same batch as the lookup. The cursor's
// `added_at <=` bound is what makes it a range of scroll_echos_added: with the OR alone SQLite
// walked the curation from its newest entry (20 more rows per page deep; 445 on page 20).
const curationPage = (byCursor: boolean) =>
  prepared(["viewerId", "id", "addedAt", "echoId", "window", "take", "offset"], (v) =>
    select(
      { ...echoColumns(v.viewerId, "feeds"), addedAt: scrollEchoAlias.addedAt },
      // the candidates are a scan window (echo module, scan-window.server.ts)
      sql`FROM (SELECT * FROM scroll_echos se
          WHERE se.scroll_id = (SELECT id FROM scrolls WHERE id = ${v.id} AND type = 'curation' AND (is_private = 0 OR creator_id = ${v.viewerId}))
          ${byCursor ? sql`AND se.added_at <= ${v.addedAt} AND (se.added_at < ${v.addedAt} OR se.echo_id < ${v.echoId})` : sql``}
          ORDER BY se.added_at DESC, se.echo_id DESC LIMIT ${v.window}) se
        JOIN echos e ON e.id = se.echo_id
        JOIN users u ON u.id = e.author_id
        WHERE ${authorVisible(v.viewerId, "e.author_id")} AND ${wordsVisible(v.viewerId, "feeds")} AND ${moderationVisible(v.viewerId, "e.author_id", "e.id", "public")}
        ORDER BY se.added_at DESC, se.echo_id DESC LIMIT ${v.take} OFFSET ${v.offset}`,
    ),
  );
const curationPages = { first: curationPage(false), next: curationPage(true) };

/** A curation's candidates: the entry and the echo, 2 rows; a shown echo 2 more (author, like). */
const CURATION_ROWS = { perCandidate: 2, perShown: 2 };

/**
 * The probe of a curation's entries (scan window): by scroll_echos_added, 1 row each, guarded as
 * the page is (a private curation's entries tell nothing to others, not even that there are more).
 */
const curationProbe =
  (viewerId: string, id: string): Probe =>
  (from, skip) =>
    select(
      { id: sql<string>`se.echo_id`, a: sql<number>`se.added_at` },
      sql`FROM scroll_echos se WHERE se.scroll_id = (SELECT id FROM scrolls WHERE id = ${id} AND type = 'curation' AND (is_private = 0 OR creator_id = ${viewerId}))
        ${from && from.a !== undefined ? sql`AND se.added_at <= ${from.a} AND (se.added_at < ${from.a} OR se.echo_id < ${from.id})` : sql``}
        ORDER BY se.added_at DESC, se.echo_id DESC LIMIT 1 OFFSET ${skip}`,
    );

/**
 * A curation's page: newest-added first, by (added_at, echo id) cursor. `total` is the
 * curation's echo count, from the scroll row its caller reads anyway (no statement of its own).
 */
export async function curationEchos(
  app: AppContext,
  viewerId: string,
  id: string,
  req: PageRequest,
  key: ListCursor | null,
  offset: number,
  total: Promise<number>,
  // a page sent before the scroll's type is known (echosById's guess) probes only once it is a curation
  isCuration: Promise<boolean> = Promise.resolve(true),
): Promise<ScrollEchoPage> {
  const byCursor = key !== null && key.a !== undefined;
  const window = scanWindow(req.limit, offset, CURATION_ROWS.perCandidate, CURATION_ROWS.perShown);
  const page = (byCursor ? curationPages.next : curationPages.first)({
    viewerId,
    id,
    addedAt: byCursor ? key.a : null,
    echoId: byCursor ? key.id : null,
    window,
    take: req.limit + 1,
    offset,
  });
  // the curation's last entry (scan window), guarded as the page is: 1 row
  const tail = select(
    { id: sql<string>`se.echo_id` },
    sql`FROM scroll_echos se WHERE se.scroll_id = (SELECT id FROM scrolls WHERE id = ${id} AND type = 'curation' AND (is_private = 0 OR creator_id = ${viewerId}))
      ORDER BY se.added_at ASC, se.echo_id ASC LIMIT 1`,
  );
  const [rows, last] = await batch(app.db, [page, tail]);
  const start = byCursor ? { id: key.id, a: key.a } : null;
  if (rows.length <= req.limit && !(await isCuration)) return echoPage([], req, await total, false, null);
  const keyOf = (r: (typeof rows)[number]) => ({ a: r.addedAt, id: r.id });
  // a short page with more is filled (windowPage) when the page went in the request's one round trip
  const ask = { limit: req.limit, start, offset, window, cost: CURATION_ROWS, probe: curationProbe(viewerId, id) };
  const { rows: filled, hasMore, nextCursor } = await windowPage(app, rows, keyOf, last[0], ask, (from, w, take) =>
    curationPages.next({ viewerId, id, addedAt: from.a ?? null, echoId: from.id, window: w, take, offset: 0 }),
  );
  return echoPage(filled.slice(0, req.limit), req, await total, hasMore, nextCursor);
}
