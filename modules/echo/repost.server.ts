// Reposts and the lists of who reposted and who quoted an echo (docs/decisions/027-reposts-and-quotes.md).
// A repost is a row of `reposts`; its id, from the echos' time-ordered id space, is its entry in
// the reposter's followers' timelines, so it sorts by when it was reposted. The count and the
// author's notification are triggers (migrations/0026_reposts_quotes.sql).
import { encodeCursor, forbidden, newId, notFound } from "../shared/index";
import { accountLimit, authorVisible, batch, blockedBetween, listCursor, returning, select, sendChanges, sql, tables, type AppContext, type Result } from "../shared/index.server";
import { echoColumns, toEcho } from "./echo-row.server";
import { publishRepost } from "./live.server";
import { requireEchoId } from "./echo.server";
import { shape, type PageRequest } from "./lists.server";
import { REPOSTS_PAGE, type EchoPage, type RepostersPage } from "./schema";
import { FANOUT_INLINE, fanOutRepost } from "./timeline.server";

/**
 * Repost (`on`) or undo, idempotent, under the account's `repost` limit, in one batch: the row,
 * its timeline entries (the reposter's own and the first FANOUT_INLINE followers', only if the
 * row was written now), the fresh count and state. Refused (403, nothing written) across a block
 * either way (decision 026). The rest of the followers, and an undo's removal from every
 * timeline, go through the change stream (`fanout` / `unfanout`); an undone repost is hidden
 * at once, since a timeline page joins the repost row.
 */
export async function setRepost(app: AppContext, viewerId: string, id: string, on: boolean) {
  requireEchoId(id);
  const limit = accountLimit("repost", viewerId);
  const blocked = blockedBetween(sql`(SELECT author_id FROM echos WHERE id = ${id})`, viewerId);
  const repostId = newId();
  const written = sql`EXISTS (SELECT 1 FROM reposts WHERE id = ${repostId})`;
  const now = Date.now();
  const fanOut = fanOutRepost(repostId, viewerId, written, now);
  const writes = on
    ? [
        // the reposter's name kept on the row: Following names them without their users row
        sql`INSERT INTO reposts (id, echo_id, user_id, created_at, user_name)
          SELECT ${repostId}, ${id}, ${viewerId}, ${now}, (SELECT user_name FROM users WHERE id = ${viewerId}) WHERE EXISTS (SELECT 1 FROM echos WHERE id = ${id}) AND ${limit.within} AND NOT ${blocked}
          ON CONFLICT DO NOTHING`,
        ...fanOut.statements,
      ]
    : [returning(sql`DELETE FROM reposts WHERE user_id = ${viewerId} AND echo_id = ${id} AND ${limit.within}`, { id: tables.reposts.id })];
  const state = select(
    {
      reposts: tables.echos.repostsCount,
      isReposted: sql<number>`EXISTS (SELECT 1 FROM reposts WHERE user_id = ${viewerId} AND echo_id = ${id})`,
      blocked: sql<number>`${blocked}`,
      fresh: sql<number>`${written}`,
    },
    sql`FROM echos WHERE id = ${id}`,
  );
  // a repost goes live to its readers' open Following pages (decision 027): the echo as a card
  // shows it, and who reposted; read only when reposting (about six rows)
  const echo = select(
    { ...echoColumns(viewerId), byName: sql<string>`(SELECT ru.user_name FROM users ru WHERE ru.id = ${viewerId})` },
    sql`FROM echos e JOIN users u ON u.id = e.author_id WHERE e.id = ${id}`,
  );
  const tail = [fanOut.followers, limit.count, state] as const;
  const results = await batch(app.db, [limit.upsert, ...writes, ...tail, ...(on ? [echo] : [])]);
  const at = 1 + writes.length;
  const tooMany = limit.exceeded((results[at + 1] as Result<typeof limit.count>)[0]?.count);
  if (tooMany) throw tooMany;
  const row = (results[at + 2] as Result<typeof state>)[0];
  if (!row) throw notFound("Echo not found");
  if (on && row.blocked === 1 && row.isReposted !== 1) throw forbidden("You cannot repost this echo");
  if (on && row.fresh === 1) {
    const followers = (results[at] as Result<typeof fanOut.followers>)[0]?.count ?? 0;
    if (followers > FANOUT_INLINE) sendChanges(app, [{ type: "fanout", echoId: repostId, authorId: viewerId, after: "", repost: true }]);
    const read = (results[at + 3] as Result<typeof echo>)[0];
    if (read) publishRepost(app, { ...toEcho(read), repost: { _id: repostId, by: { _id: viewerId, userName: read.byName }, createdAt: new Date(now).toISOString() } });
  }
  if (!on) {
    const gone = (results[1] as { id: string }[])[0];
    if (gone) sendChanges(app, [{ type: "unfanout", echoId: gone.id }]);
  }
  return { reposts: row.reposts, isReposted: row.isReposted === 1 };
}

/**
 * GET /echo/{id}/reposts: who reposted, newest first, by cursor (the `reposts_echo` range), people
 * hidden from the viewer left out; one batch with the echo's existence (404).
 */
export async function listReposters(app: AppContext, viewerId: string, id: string, cursor: string | undefined): Promise<RepostersPage> {
  requireEchoId(id);
  const key = listCursor({ cursor });
  const r = tables.reposts;
  const [exists, rows] = await batch(app.db, [
    select({ id: tables.echos.id }, sql`FROM echos WHERE id = ${id}`),
    select(
      { id: r.id, userId: r.userId, userName: tables.users.userName, createdAt: r.createdAt },
      sql`FROM reposts JOIN users ON ${tables.users.id} = ${r.userId}
        WHERE ${r.echoId} = ${id} AND ${key ? sql`${r.id} < ${key.id}` : sql`1`} AND ${authorVisible(viewerId, sql`${r.userId}`)}
        ORDER BY ${r.id} DESC LIMIT ${REPOSTS_PAGE + 1}`,
    ),
  ]);
  if (!exists[0]) throw notFound("Echo not found");
  const page = rows.slice(0, REPOSTS_PAGE);
  const hasMore = rows.length > REPOSTS_PAGE;
  return {
    users: page.map((p) => ({ _id: p.userId, userName: p.userName, repostedAt: new Date(p.createdAt).toISOString() })),
    pagination: { limit: REPOSTS_PAGE, hasMore, nextCursor: hasMore ? encodeCursor({ id: page[page.length - 1]!.id }) : null },
  };
}

/**
 * GET /echo/{id}/quotes: the echos quoting it, newest first (the `echos_quote` range), as any echo
 * list answers (page or cursor); the total is the echo's quote count. 404 for an echo that is not
 * there (its quotes stay readable on their authors' pages, each saying "This echo was deleted").
 */
export async function listQuotes(app: AppContext, viewerId: string, id: string, req: PageRequest): Promise<EchoPage> {
  requireEchoId(id);
  const key = listCursor(req);
  const [counts, rows] = await batch(app.db, [
    select({ n: tables.echos.quotesCount }, sql`FROM echos WHERE id = ${id}`),
    select(
      echoColumns(viewerId),
      sql`FROM echos e JOIN users u ON u.id = e.author_id
        WHERE e.quote_of_id = ${id} AND ${key ? sql`e.id < ${key.id}` : sql`1`} AND ${authorVisible(viewerId, "e.author_id")}
        ORDER BY e.id DESC LIMIT ${req.limit + 1} OFFSET ${key ? 0 : (req.page - 1) * req.limit}`,
    ),
  ]);
  if (!counts[0]) throw notFound("Echo not found");
  return shape(rows, req, counts[0].n, "newest");
}
