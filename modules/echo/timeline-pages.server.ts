// The Following timeline's reads (docs/decisions/013-following-timeline.md): a page of the
// viewer's timeline (one index walk of the owner's rows), and which readers a live echo or repost
// reaches on their Following page (decisions 016, 027). Its writes (fan-out, follow backfill,
// unfollow removal, the cron's trim) are timeline.server.ts's.
import type { Placeholder } from "drizzle-orm";
import { authorVisible, moderationVisible, wordsVisible, batch, select, sql, tables, type AppContext, type Db, type SQL } from "../shared/index.server";
import { encodeCursor } from "../shared/index";
import { echoColumns, type EchoRow } from "./echo-row.server";
import { knownTotal, newestPages, shape, type PageRequest } from "./lists.server";
import type { EchoPage } from "./schema";

/**
 * Live updates on Following (decision 016): which of these readers would see the echo on their
 * Following page: those whose timeline holds it, and its author's followers (and the author)
 * whose row the change stream has not written yet (a post writes only FANOUT_INLINE followers'
 * rows in its batch). The readers' list is the outer loop (CROSS JOIN), so each reader is one or
 * two primary-key probes: the rows read follow the readers asked about, not the author's
 * followers (whose rows for the echo may be 50,000).
 */
export async function timelineOwners(db: Db, echo: { id: string; authorId: string }, ownerIds: readonly string[]): Promise<Set<string>> {
  if (ownerIds.length === 0) return new Set();
  const [rows] = await batch(db, [
    select(
      { id: sql<string>`r.value` },
      sql`FROM json_each(${JSON.stringify(ownerIds)}) r
      WHERE r.value = ${echo.authorId}
        OR EXISTS (SELECT 1 FROM timeline_entries t WHERE t.owner_id = r.value AND t.echo_id = ${echo.id})
        OR EXISTS (SELECT 1 FROM user_follows f WHERE f.follower_id = r.value AND f.followee_id = ${echo.authorId})`,
    ),
  ]);
  return new Set(rows.map((r) => r.id));
}

/**
 * Live updates of a repost on Following (decision 027): which of these readers get the repost
 * entry on their Following page, each with their own like and repost state of the echo (the
 * message is the reposter's read, decision 016). A reader gets it when the timeline holds the
 * repost or will (the reposter's followers: the change stream writes past the first 100), or is
 * the reposter — and sees both the echo's author and the reposter, as the page itself requires.
 * As timelineOwners: the readers' list is the outer loop, a few primary-key probes each.
 */
export async function repostReaders(
  db: Db,
  repost: { id: string; reposterId: string; echoId: string; authorId: string },
  ownerIds: readonly string[],
): Promise<Map<string, { isLiked: boolean; isReposted: boolean }>> {
  if (ownerIds.length === 0) return new Map();
  const reader = sql`r.value`;
  const [rows] = await batch(db, [
    select(
      {
        id: sql<string>`r.value`,
        liked: sql<number>`EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = ${repost.echoId} AND l.user_id = r.value)`,
        reposted: sql<number>`EXISTS (SELECT 1 FROM reposts x WHERE x.user_id = r.value AND x.echo_id = ${repost.echoId})`,
      },
      sql`FROM json_each(${JSON.stringify(ownerIds)}) r
      WHERE (r.value = ${repost.reposterId}
          OR EXISTS (SELECT 1 FROM timeline_entries t WHERE t.owner_id = r.value AND t.echo_id = ${repost.id})
          OR EXISTS (SELECT 1 FROM user_follows f WHERE f.follower_id = r.value AND f.followee_id = ${repost.reposterId}))
        AND ${authorVisible(reader, sql`${repost.authorId}`)} AND ${authorVisible(reader, sql`${repost.reposterId}`)}`,
    ),
  ]);
  return new Map(rows.map((r) => [r.id, { isLiked: r.liked === 1, isReposted: r.reposted === 1 }]));
}

/**
 * A page of a timeline whose owner `owner` names (it may be NULL: then no row is read). Only
 * the owner's own echos and those of authors the owner follows: an unfollow removes a bounded
 * number of the followee's rows at once, the cron the rest (one primary-key probe of
 * user_follows per row read).
 */
const timelinePages = (owner: (viewerId: Placeholder) => SQL) =>
  newestPages(["viewerId"], "t.echo_id", (v, where) =>
    select(
      // an entry is an echo or a repost (decision 027: a probe of `reposts` by its id, which
      // finds nothing for an echo); a repost shows its echo, and it is the reposter who must be
      // followed (or the owner) and visible, as well as the echo's author
      { ...echoColumns(v.viewerId, "home"), entryId: sql<string>`t.echo_id`, repostBy: sql<string | null>`r.user_id`, repostAt: sql<number | null>`r.created_at`,
        // the reposter's name is on the repost row (migration 0031); older rows read the users row
        repostByName: sql<string | null>`COALESCE(r.user_name, (SELECT ru.user_name FROM users ru WHERE ru.id = r.user_id))` },
      sql`FROM timeline_entries t LEFT JOIN reposts r ON r.id = t.echo_id JOIN echos e ON e.id = COALESCE(r.echo_id, t.echo_id) JOIN users u ON u.id = e.author_id
        WHERE t.owner_id = ${owner(v.viewerId)} AND ${where} AND ${authorVisible(v.viewerId, "e.author_id")} AND ${wordsVisible(v.viewerId, "home")}
          AND ${moderationVisible(v.viewerId, "e.author_id", "e.id", "personal")}
          AND (r.user_id IS NULL OR ${authorVisible(v.viewerId, "r.user_id")})
          AND (COALESCE(r.user_id, e.author_id) = t.owner_id
            OR EXISTS (SELECT 1 FROM user_follows uf WHERE uf.follower_id = t.owner_id AND uf.followee_id = COALESCE(r.user_id, e.author_id)))
        ORDER BY t.echo_id DESC LIMIT ${v.limit} OFFSET ${v.offset}`,
    ),
  );

type TimelineRow = EchoRow & { entryId: string; repostBy: string | null; repostAt: number | null; repostByName: string | null };

/** A timeline page: a repost's entry carries who reposted; the cursor is the entry's id (a repost sorts by its own time). */
function timelineShape(rows: TimelineRow[], req: PageRequest): EchoPage {
  const page = shape(rows, req, knownTotal(rows, req), "newest");
  page.echos = page.echos.map((echo, i) => {
    const row = rows[i]!;
    return row.repostBy === null ? echo : { ...echo, repost: { _id: row.entryId, by: { _id: row.repostBy, userName: row.repostByName ?? "" }, createdAt: new Date(row.repostAt ?? 0).toISOString() } };
  });
  const last = rows[Math.min(rows.length, req.limit) - 1];
  if (page.pagination.nextCursor !== null && last) page.pagination.nextCursor = encodeCursor({ id: last.entryId });
  return page;
}

/** A page of the viewer's timeline. */
const followingPage = timelinePages((viewerId) => sql`${viewerId}`);

/** The same page, whose owner is NULL (no row read) when the viewer follows nobody. */
const followingPageIfAny = timelinePages(
  (viewerId) =>
    sql`CASE WHEN (SELECT ${tables.users.followingCount} FROM users WHERE ${tables.users.id} = ${viewerId}) > 0 THEN ${viewerId} END`,
);

/**
 * GET /echo/following: the viewer's timeline newest first, keyset by echo id (a cursor) or an
 * OFFSET (page without cursor). One statement: the total is what is known so far (no COUNT over
 * the timeline), as for windowed tag lists and feeds.
 */
export async function listFollowing(app: AppContext, viewerId: string, req: PageRequest): Promise<EchoPage> {
  const [rows] = await batch(app.db, [followingPage({ viewerId }, req)]);
  return timelineShape(rows, req);
}

/**
 * The Following page if the viewer follows anyone, else null. Not following, the page's seek key
 * is NULL and no timeline row is read: home sends this in the batch that finds out whether
 * Following is its default, so its usual page costs one round trip, not two. `followsAnyone` is
 * the answer of that same batch (the session check reads the viewer's following count), so an
 * empty page is told apart from no follows at all.
 */
export async function followingIfAny(app: AppContext, viewerId: string, req: PageRequest, followsAnyone: Promise<boolean>): Promise<EchoPage | null> {
  const [rows] = await batch(app.db, [followingPageIfAny({ viewerId }, req)]);
  return (await followsAnyone) ? timelineShape(rows, req) : null;
}
