// The Following timeline's reads (docs/decisions/013-following-timeline.md): a page of the
// viewer's timeline (one index walk of the owner's rows), and which readers a live echo or repost
// reaches on their Following page (decisions 016, 027). Its writes (fan-out, follow backfill,
// unfollow removal, the cron's trim) are timeline.server.ts's.
import type { Placeholder } from "drizzle-orm";
import { authorVisible, moderationVisible, wordsVisible, batch, listCursor, prepared, select, sql, tables, type AppContext, type Db, type SQL } from "../shared/index.server";
import { knownSoFar, pagination } from "../shared/index";
import { echoColumns, toEcho, type EchoRow } from "./echo-row.server";
import type { PageRequest } from "./lists.server";
import { scanWindow, windowPage, type Probe, type WindowAsk } from "./scan-window.server";
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
 * user_follows per row read). The entries are a scan window (scan-window.server.ts; issue 32,
 * decision 026 "Filling a short page"): a lazy co-routine of at most `window` entries, so an entry
 * the viewer does not see (a muted word, a hidden author: its entry and its echo read) is stepped
 * over within a bound — without it a run of 110 word-hidden entries cost the first page 290 rows.
 */
const timelineFrame = (owner: SQL, v: Record<"viewerId" | "window" | "limit" | "offset", Placeholder>, where: SQL) =>
  select(
    // an entry is an echo or a repost (decision 027: a probe of `reposts` by its id, which
    // finds nothing for an echo); a repost shows its echo, and it is the reposter who must be
    // followed (or the owner) and visible, as well as the echo's author
    { ...echoColumns(v.viewerId, "home"), entryId: sql<string>`t.echo_id`, repostBy: sql<string | null>`r.user_id`, repostAt: sql<number | null>`r.created_at`,
      // the reposter's name is on the repost row (migration 0031); older rows read the users row
      repostByName: sql<string | null>`COALESCE(r.user_name, (SELECT ru.user_name FROM users ru WHERE ru.id = r.user_id))` },
    sql`FROM (SELECT * FROM timeline_entries t WHERE t.owner_id = ${owner} AND ${where} ORDER BY t.echo_id DESC LIMIT ${v.window}) t
        LEFT JOIN reposts r ON r.id = t.echo_id JOIN echos e ON e.id = COALESCE(r.echo_id, t.echo_id) JOIN users u ON u.id = e.author_id
      WHERE ${authorVisible(v.viewerId, "e.author_id")} AND ${wordsVisible(v.viewerId, "home")}
        AND ${moderationVisible(v.viewerId, "e.author_id", "e.id", "personal")}
        AND (r.user_id IS NULL OR ${authorVisible(v.viewerId, "r.user_id")})
        AND (COALESCE(r.user_id, e.author_id) = t.owner_id
          OR EXISTS (SELECT 1 FROM user_follows uf WHERE uf.follower_id = t.owner_id AND uf.followee_id = COALESCE(r.user_id, e.author_id)))
      ORDER BY t.echo_id DESC LIMIT ${v.limit} OFFSET ${v.offset}`,
  );

type Slots = Record<"viewerId" | "window" | "limit" | "offset", Placeholder>;

/**
 * Below the entry `skip` after `from` (an entry id, or the top) of the viewer's timeline: found by
 * the statement itself, `skip + 1` index rows (the viewer named, not the owner's expression: the
 * tail and the probe read the same rows).
 */
const belowSkipped = (viewerId: Placeholder, skip: Placeholder, from?: Placeholder) =>
  sql`t.echo_id < (SELECT p.echo_id FROM timeline_entries p WHERE p.owner_id = ${viewerId} ${from ? sql`AND p.echo_id < ${from}` : sql.raw("")} ORDER BY p.echo_id DESC LIMIT 1 OFFSET ${skip})`;

/**
 * The page statement in its shapes (from the top, below an entry; and, for a page whose window
 * showed nothing, below that window's last entry from either: scan-window's RefillAfter), each
 * rendered once per isolate.
 */
function timelineShapes(owner: (viewerId: Placeholder) => SQL) {
  const top = prepared(["viewerId", "window", "limit", "offset"], (v) => timelineFrame(owner(v.viewerId), v as Slots, sql.raw("1")));
  const below = prepared(["viewerId", "window", "limit", "offset", "id"], (v) => timelineFrame(owner(v.viewerId), v as Slots, sql`t.echo_id < ${v.id}`));
  const afterTop = prepared(["viewerId", "window", "limit", "offset", "skip"], (v) => timelineFrame(owner(v.viewerId), v as Slots, belowSkipped(v.viewerId, v.skip)));
  const afterBelow = prepared(["viewerId", "window", "limit", "offset", "skip", "id"], (v) =>
    timelineFrame(owner(v.viewerId), v as Slots, belowSkipped(v.viewerId, v.skip, v.id)),
  );
  return { top, below, afterTop, afterBelow };
}

type TimelineRow = EchoRow & { entryId: string; repostBy: string | null; repostAt: number | null; repostByName: string | null };

/**
 * What an entry and a shown echo cost at the worst: the entry, its repost row and its echo; the
 * author, the like, repost and quote probes and the follow probe.
 */
const TIMELINE_ROWS = { perCandidate: 3, perShown: 5 };

/** The viewer's timeline page (the owner given: see followingIfAny). */
const followingShapes = timelineShapes((viewerId) => sql`${viewerId}`);

/** The same page, whose owner is NULL (no row read) when the viewer follows nobody. */
const followingIfAnyShapes = timelineShapes(
  (viewerId) =>
    sql`CASE WHEN (SELECT ${tables.users.followingCount} FROM users WHERE ${tables.users.id} = ${viewerId}) > 0 THEN ${viewerId} END`,
);

/** The timeline's last entry (1 row, the index's other end) and the entry `skip` after a key: scan-window's tail and probe. */
const timelineTail = (viewerId: string) => select({ id: sql<string>`t.echo_id` }, sql`FROM timeline_entries t WHERE t.owner_id = ${viewerId} ORDER BY t.echo_id ASC LIMIT 1`);
const timelineProbe =
  (viewerId: string): Probe =>
  (from, skip) =>
    select({ id: sql<string>`t.echo_id` }, sql`FROM timeline_entries t WHERE t.owner_id = ${viewerId} ${from ? sql`AND t.echo_id < ${from.id}` : sql.raw("")} ORDER BY t.echo_id DESC LIMIT 1 OFFSET ${skip}`);

/**
 * A timeline page in one batch (the page, the tail), filled where it came out short with more
 * (windowPage: a second statement within the rows D1 says the first left) — after its last echo,
 * or, showing nothing, after its window's last entry, which that statement finds itself. A
 * repost's entry carries who reposted; the cursor is the entry's id (a repost sorts by its own
 * time).
 */
async function timelinePage(app: AppContext, shapes: ReturnType<typeof timelineShapes>, viewerId: string, req: PageRequest, extra: () => Promise<void> = async () => {}) {
  const key = listCursor(req);
  const offset = key ? 0 : (req.page - 1) * req.limit;
  const window = scanWindow(req.limit, offset, TIMELINE_ROWS.perCandidate, TIMELINE_ROWS.perShown);
  const first = key
    ? shapes.below({ viewerId, window, limit: req.limit + 1, offset: 0, id: key.id })
    : shapes.top({ viewerId, window, limit: req.limit + 1, offset });
  const [rows, tail] = await batch(app.db, [first, timelineTail(viewerId)]);
  await extra();
  const ask: WindowAsk = { limit: req.limit, start: key, offset, window, cost: TIMELINE_ROWS, probe: timelineProbe(viewerId) };
  const more = await windowPage(
    app,
    rows as TimelineRow[],
    (r) => ({ id: r.entryId }),
    tail[0],
    ask,
    (from, w, take) => shapes.below({ viewerId, window: w, limit: take, offset: 0, id: from.id }),
    (start, skip, w, take) => {
      const at = { viewerId, window: w, limit: take, offset: 0, skip };
      return start ? shapes.afterBelow({ ...at, id: start.id }) : shapes.afterTop(at);
    },
  );
  const page = more.rows.slice(0, req.limit);
  const total = knownSoFar(req.page, req.limit, page.length, more.hasMore);
  return {
    echos: page.map((row) => {
      const echo = toEcho(row);
      return row.repostBy === null ? echo : { ...echo, repost: { _id: row.entryId, by: { _id: row.repostBy, userName: row.repostByName ?? "" }, createdAt: new Date(row.repostAt ?? 0).toISOString() } };
    }),
    pagination: { ...pagination(req.page, req.limit, total, more.hasMore), nextCursor: more.nextCursor },
  } satisfies EchoPage;
}

/**
 * GET /echo/following: the viewer's timeline newest first, keyset by entry id (a cursor) or an
 * OFFSET (page without cursor). The total is what is known so far (no COUNT over the timeline),
 * as for windowed tag lists and feeds.
 */
export async function listFollowing(app: AppContext, viewerId: string, req: PageRequest): Promise<EchoPage> {
  return timelinePage(app, followingShapes, viewerId, req);
}

/**
 * The Following page if the viewer follows anyone, else null. Not following, the page's seek key
 * is NULL and no timeline row is read: home sends this in the batch that finds out whether
 * Following is its default, so its usual page costs one round trip, not two. `followsAnyone` is
 * the answer of that same batch (the session check reads the viewer's following count), so an
 * empty page is told apart from no follows at all; it is awaited before a fill or a probe, which
 * then follows that round trip.
 */
export async function followingIfAny(app: AppContext, viewerId: string, req: PageRequest, followsAnyone: Promise<boolean>): Promise<EchoPage | null> {
  let follows = false;
  const page = await timelinePage(app, followingIfAnyShapes, viewerId, req, async () => {
    follows = await followsAnyone;
  });
  return follows ? page : null;
}
