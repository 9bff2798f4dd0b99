// Reading and marking notifications. Writing them is the database's job: triggers of
// migrations/0014_notifications.sql add and remove them in the transaction of each like, follow
// and scroll follow; mentions ride in the echo post's batch (mentionStatement below).
import * as v from "valibot";
import { CURSOR_INVALID, cursorInteger, cursorSchema, encodeCursor } from "../shared/index";
import { and, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { accountVisible, authorVisible, echoDeleted, hasHidden, lit, moderatesAnyoneText, ROW_BUDGET, wordsVisible, batch, batchUnderLimit, parseInput, select, sql, tables, type AppContext, type RowOf, type SQL } from "../shared/index.server";
import {
  EXCERPT_CHARS,
  NOTIFICATION_KINDS,
  NOTIFICATIONS_PER_PAGE,
  excerpt,
  type Notification,
  type NotificationKind,
  type NotificationPage,
} from "./schema";

const g = alias(tables.notificationGroups, "g");
const { users } = tables;
const a = alias(users, "a");
const e = alias(tables.echos, "e");
const s = alias(tables.scrolls, "s");

/**
 * A group with its newest actor, and its echo or scroll (LEFT JOINs: null when it has none, so
 * those columns are typed nullable here). The echo text is cut in SQL (+1 character, so the
 * excerpt knows it was cut).
 */
const groupColumns = {
  kind: g.kind,
  groupKey: g.groupKey,
  actorCount: g.actorCount,
  latestAt: g.latestAt,
  actorId: a.id,
  actorName: a.userName,
  echoId: sql<string | null>`${e.id}`,
  // an echo with a content warning is previewed by its warning, never its text (decision 025)
  echoText: sql<string | null>`CASE WHEN ${e.warning} IS NULL THEN substr(${e.content}, 1, ${EXCERPT_CHARS + 1}) ELSE 'CW: ' || ${e.warning} END`,
  scrollId: sql<string | null>`${s.id}`,
  scrollName: sql<string | null>`${s.name}`,
};
type GroupRow = RowOf<typeof groupColumns>;

type Key = { t: number; k: NotificationKind; g: string };

/** The keyset cursor of a page: the last group's (latest_at, kind, group_key). */
const NotificationCursorSchema = cursorSchema(
  v.object(
    {
      t: cursorInteger(0),
      k: v.picklist(NOTIFICATION_KINDS, CURSOR_INVALID),
      g: v.pipe(v.string(CURSOR_INVALID), v.minLength(1, CURSOR_INVALID), v.maxLength(64, CURSOR_INVALID)),
    },
    CURSOR_INVALID,
  ),
);

function parseCursor(cursor: string | undefined): Key | null {
  return cursor === undefined ? null : parseInput(NotificationCursorSchema, cursor);
}

/** How many of a group's newest actors are looked through for a visible one when its newest is hidden. */
export const HIDDEN_ACTOR_WINDOW = 3;

function toNotification(row: GroupRow, readAt: number): Notification {
  return {
    _id: `${row.kind}:${row.groupKey}`,
    kind: row.kind,
    actor: { _id: row.actorId, userName: row.actorName },
    actorCount: row.actorCount,
    echo: row.echoId ? { _id: row.echoId, excerpt: excerpt(row.echoText ?? "") } : null,
    scroll: row.scrollId ? { _id: row.scrollId, name: row.scrollName ?? "" } : null,
    unread: row.latestAt > readAt,
    updatedAt: new Date(row.latestAt).toISOString(),
  };
}

/**
 * How many groups a page steps over at most (issue 32, docs/decisions/026-safety.md "Filling a
 * short page"; 015 "The window"): a group costs up to 3 rows (its row, its actor, its echo or
 * scroll) whether shown or left out by a muted word, and a page that comes back short reads the
 * window's last group (1 row a group) to say where the list goes on: 4 × 45 and the viewer's sets
 * stay within 200. Without it a run of mentions holding a muted word was read to its end (90 of
 * them: 338 rows).
 */
export const NOTICE_WINDOW = 45;
/**
 * What a group of a hider's window reads at its worst (decision 015, "The hidden-actor window
 * from a formula"): shown, its row, its newest HIDDEN_ACTOR_WINDOW notifications (read only when
 * its newest actor is hidden: fewer than 3 in the group read theirs and the key range's end, no
 * more), its actor and its echo or scroll; left out, its row and that window (all hidden, or its
 * echo deleted: tested before the actor and echo are read). A group left out otherwise reads
 * less: a muted word's mention 3 (row, actor, echo), a hidden author's mention 3 (row, its one
 * notification, the range's end), a deleted echo whose newest actor shows 1.
 */
export const HIDING_SHOWN_ROWS = 1 + HIDDEN_ACTOR_WINDOW + 2;
export const HIDING_LEFT_OUT_ROWS = 1 + HIDDEN_ACTOR_WINDOW;
/**
 * A hider's page's rows besides its groups and its probe: the state statement's 3 (the viewer's
 * row, and the window's tests: their hidden set, the moderation row) and the page statement's 10,
 * the sets each of its tests reads once a statement (the window's test again, the hidden set and
 * moderation row of the actor tests, the words' set, the moderation row of the deletion test).
 * Measured: 13 on every page whose groups reach every one of those tests (a shown group whose
 * window is read), fewer otherwise (6 to 8); the sets are one row each whatever they hold.
 */
export const HIDING_FIXED_ROWS = 13;
/**
 * The window of a viewer who hides any actor (a block, a mute, or moderation limits or suspends
 * any account), from the worst page: a short one (its probe reads the window's groups again, 1
 * row each) with NOTIFICATIONS_PER_PAGE groups shown at their dearest and the window's others
 * left out at theirs — fixed + 20 × 6 + (w − 20) × 4 + w ≤ 200, so w = 29 (198 rows). A full page
 * (21 shown, no probe) reads fewer: 13 + 21 × 6 + 8 × 4 = 171. Was 27, set from measured pages
 * (188 rows at its worst).
 */
export const NOTICE_WINDOW_HIDING = Math.floor(
  (ROW_BUDGET - HIDING_FIXED_ROWS - NOTIFICATIONS_PER_PAGE * (HIDING_SHOWN_ROWS - HIDING_LEFT_OUT_ROWS)) / (HIDING_LEFT_OUT_ROWS + 1),
);

/** The viewer's window, in SQL: uncorrelated (read once per statement: their set's row, moderation's). */
const windowOf = (viewerId: string) =>
  sql<number>`(CASE WHEN ${hasHidden(viewerId)} OR ${sql.raw(moderatesAnyoneText)} THEN ${NOTICE_WINDOW_HIDING} ELSE ${NOTICE_WINDOW} END)`;

/** The viewer's read mark, unread count and window (one row, and the window's two probes). */
const stateOf = (viewerId: string) =>
  select(
    { readAt: users.notificationsReadAt, unread: users.unreadNotifications, window: windowOf(viewerId) },
    sql`FROM ${users} WHERE ${users.id} = ${viewerId}`,
  );

/**
 * A page of the viewer's notification groups, newest first, by keyset cursor. One batch with the
 * unread count; reads ≤ 21 groups and their newest actor, echo or scroll (about 65 rows), among
 * at most NOTICE_WINDOW groups (NOTICE_WINDOW_HIDING for a viewer who hides any actor). A page
 * that comes back short (a muted word's run, hidden actors, or the end) asks in a second round
 * trip for the window's last group: the next page starts after it (every group before it was
 * seen), or, none, the list ended there.
 */
export async function listNotifications(app: AppContext, viewerId: string, cursor?: string): Promise<NotificationPage> {
  const after = parseCursor(cursor);
  const limit = NOTIFICATIONS_PER_PAGE;
  const seek = after ? sql`AND (latest_at, kind, group_key) < (${after.t}, ${after.k}, ${after.g})` : sql``;
  // the groups shown when their state was last computed (migration 0041, decision 015 "Shown groups
  // kept on write"): a run the viewer hides is not read at all; each one is still tested below, so
  // a state a hiding change made stale (its refresh pending on the change stream) shows nothing hidden
  const candidates = sql`FROM notification_groups g0 INDEXED BY notification_groups_shown
    WHERE recipient_id = ${viewerId} AND shown = 1 ${seek} ORDER BY latest_at DESC, kind DESC, group_key DESC`;
  // a group whose newest actor the viewer does not see (a block, a mute, a limited, suspended or
  // deleted account) shows its newest visible actor among its newest HIDDEN_ACTOR_WINDOW, and
  // counts the hidden ones of them out; one whose window holds no visible actor stays out. The
  // window's actors (a probe of the key's range) are read only for such a group: `w`, a column of
  // the window's co-routine, their ids newest first (the aggregate takes its ordered subquery's
  // rows as they come; an ORDER BY in it would sort, 3 rows more a group). They are tested here,
  // in the statement, not in that probe: the viewer's sets are read once a statement, but once a
  // probe inside it.
  const visible = (actor: string) => sql`(${authorVisible(viewerId, actor)} AND ${accountVisible(actor)})`;
  const newest = sql`SELECT n.actor_id FROM notifications n WHERE n.recipient_id = g0.recipient_id AND n.kind = g0.kind AND n.group_key = g0.group_key
    ORDER BY n.created_at DESC, n.actor_id DESC LIMIT ${HIDDEN_ACTOR_WINDOW}`;
  const w = sql`CASE WHEN ${visible("g0.latest_actor_id")} THEN NULL ELSE (SELECT json_group_array(actor_id) FROM (${newest})) END`;
  const nth = Array.from({ length: HIDDEN_ACTOR_WINDOW }, (_, i) => `json_extract(g.w, ${lit(`$[${i}]`)})`);
  const shown = sql.join(nth.map((id) => sql`WHEN ${sql.raw(id)} IS NOT NULL AND ${visible(id)} THEN ${sql.raw(id)}`), sql` `);
  const hidden = sql.join(nth.map((id) => sql`(${sql.raw(id)} IS NOT NULL AND NOT ${visible(id)})`), sql` + `);
  const [state, rows] = await batch(app.db, [
    stateOf(viewerId),
    // one more than a page says whether another follows
    select(
      { ...groupColumns, actorCount: sql<number>`g.actor_count - CASE WHEN g.w IS NULL THEN 0 ELSE ${hidden} END` },
      // the window: a lazy co-routine in the page's order, read only as far as the page needs
      sql`FROM (SELECT g0.*, ${w} AS w ${candidates} LIMIT ${windowOf(viewerId)}) g
        JOIN users a ON a.id = CASE WHEN g.w IS NULL THEN g.latest_actor_id ${shown} END
        LEFT JOIN echos e ON e.id = g.echo_id
        LEFT JOIN scrolls s ON s.id = g.scroll_id
        WHERE ${wordsVisible(viewerId, "notifications")}
          -- an echo deleted and waiting for its purge (decision 032): its notices go with it now
          AND (g.echo_id IS NULL OR NOT ${echoDeleted("g.echo_id")})
        ORDER BY g.latest_at DESC, g.kind DESC, g.group_key DESC
        LIMIT ${limit + 1}`,
    ),
  ]);
  const readAt = state[0]?.readAt ?? 0;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  let next: Key | null = rows.length > limit && last ? { t: last.latestAt, k: last.kind, g: last.groupKey } : null;
  if (rows.length <= limit) {
    // short: the window's last group, if the list reaches it (1 row a group of the window)
    const [end] = await batch(app.db, [select({ t: sql<number>`latest_at`, k: sql<NotificationKind>`kind`, g: sql<string>`group_key` }, sql`${candidates} LIMIT 1 OFFSET ${(state[0]?.window ?? NOTICE_WINDOW_HIDING) - 1}`)]);
    next = end[0] ?? null;
  }
  return {
    notifications: page.map((row) => toNotification(row, readAt)),
    unreadCount: Math.max(0, state[0]?.unread ?? 0),
    pagination: { limit, hasMore: next !== null, nextCursor: next ? encodeCursor(next) : null },
  };
}

/**
 * Mark all as read: the read mark moves to the newest group (so everything listed now is read,
 * whatever the clocks of the Workers that wrote it) and the counter to 0, in one statement.
 */
export async function markAllRead(app: AppContext, viewerId: string): Promise<{ unreadCount: number }> {
  // under the account's limit, in the same batch (a refused call changes nothing)
  await batchUnderLimit(app.db, "notificationsRead", viewerId, (within) => [
    app.db
      .update(users)
      .set({
        unreadNotifications: 0,
        // the newest group's time, never back (a template: SQLite's two-argument MAX)
        notificationsReadAt: sql`MAX(${users.notificationsReadAt}, COALESCE((SELECT MAX(latest_at) FROM notification_groups WHERE recipient_id = ${viewerId}), 0))`,
      })
      .where(and(eq(users.id, viewerId), within)),
  ]);
  return { unreadCount: 0 };
}

/**
 * The statement that notifies the people an echo mentions, for the post's own batch: the names
 * resolve to existing users inside it (INSERT … SELECT; unknown names notify nobody), never the
 * author, and only when the echo was written (`posted`). Echo deletion cascades them away.
 */
export function mentionStatement(echoId: string, authorId: string, userNames: string[], now: number, posted: SQL): SQL | null {
  const names = [...new Set(userNames.map((name) => name.toLowerCase()))];
  if (names.length === 0) return null;
  return sql`INSERT INTO notifications (recipient_id, kind, group_key, actor_id, echo_id, created_at)
    SELECT u.id, 'mention', ${echoId}, ${authorId}, ${echoId}, ${now} FROM users u
    WHERE u.user_name COLLATE NOCASE IN (SELECT value FROM json_each(${JSON.stringify(names)}))
      AND u.id <> ${authorId} AND ${posted}
    ON CONFLICT DO NOTHING`;
}
