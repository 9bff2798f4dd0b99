// What the affected user sees of moderation (decision 029): their account's state and the actions
// that concerned them, each appealable once; an appeal opens a case in the queue.
import { conflict, encodeCursor, isId, notFound } from "../shared/index";
import { batch, batchUnderLimit, listCursor, lit, select, sql, tables, type AppContext, type SQL } from "../shared/index.server";
import { actionColumns, accountState } from "./moderation.server";
import { APPEALABLE, SUSPENSION_GRACE_MS, type ModerationNotice, type MyModeration } from "./schema";

const VISIBLE = sql.raw(`('warn', 'limit', 'unlimit', 'suspend', 'unsuspend', 'hide', 'unhide')`);
const APPEALS = sql.raw(`(${APPEALABLE.map(lit).join(", ")})`);

type Row = { id: string; action: string; echoId: string | null; reason: string; createdAt: number; appeal: string | null; appealedAt: number | null };

const toNotice = (r: Row): ModerationNotice => ({
  _id: r.id,
  action: r.action,
  echoId: r.echoId,
  reason: r.reason,
  createdAt: new Date(r.createdAt).toISOString(),
  appeal: r.appeal,
  appealedAt: r.appealedAt === null ? null : new Date(r.appealedAt).toISOString(),
  canAppeal: r.appeal === null && (APPEALABLE as readonly string[]).includes(r.action),
});

/** The viewer's account state and notices, newest first, by cursor (moderation_actions_target). */
export async function myModeration(app: AppContext, userId: string, isModerator: boolean, req: { limit: number; cursor?: string }): Promise<MyModeration> {
  const after = listCursor(req);
  const seek = after ? sql`AND id < ${after.id}` : sql``;
  const [me, rows] = await batch(app.db, [
    select({ modState: tables.users.modState }, sql`FROM users WHERE id = ${userId}`),
    select(actionColumns, sql`FROM moderation_actions WHERE target_user_id = ${userId} AND action IN ${VISIBLE} ${seek} ORDER BY id DESC LIMIT ${req.limit + 1}`),
  ]);
  const shown = rows.slice(0, req.limit);
  const hasMore = rows.length > req.limit;
  const last = shown[shown.length - 1];
  return {
    state: accountState(me[0]?.modState ?? 0),
    isModerator,
    notices: shown.map(toNotice),
    pagination: { limit: req.limit, hasMore, nextCursor: hasMore && last ? encodeCursor({ id: last.id }) : null },
  };
}

/**
 * The user's one appeal of an action that concerned them: written on the action's row and opened
 * as a case (id = the action's id) in the queue, in one batch under the appeal limit. A suspended
 * account appeals without a session (routes/api/moderation/appeal-suspension.ts checks its password).
 */
export async function appeal(app: AppContext, userId: string, actionId: string, text: string): Promise<ModerationNotice> {
  if (!isId(actionId)) throw notFound("Action not found");
  const now = Date.now();
  const mine = sql`target_user_id = ${userId} AND id = ${actionId}`;
  const [, , read] = await batchUnderLimit(app.db, "appeal", userId, (within: SQL) => [
    sql`UPDATE moderation_actions SET appeal = ${text}, appealed_at = ${now}
      WHERE ${mine} AND appeal IS NULL AND action IN ${APPEALS} AND ${within}`,
    sql`INSERT INTO report_cases (id, kind, echo_id, user_id, reports_count, latest_reason, latest_at)
      SELECT a.id, 'appeal', (SELECT id FROM echos WHERE id = a.echo_id), a.target_user_id, 0, ${text}, ${now}
      FROM moderation_actions a WHERE a.id = ${actionId} AND a.target_user_id = ${userId} AND a.appealed_at = ${now}
        AND EXISTS (SELECT 1 FROM users WHERE id = ${userId})
      ON CONFLICT (id) DO NOTHING`,
    select(actionColumns, sql`FROM moderation_actions WHERE ${mine}`),
  ]);
  const row = read[0];
  if (!row) throw notFound("Action not found");
  if (row.appealedAt !== now) throw conflict(row.appeal === null ? "This action cannot be appealed" : "You have already appealed this action");
  return toNotice(row);
}

/** The latest suspension of a suspended account (what its appeal without a session appeals). */
export async function latestSuspension(app: AppContext, userId: string): Promise<string> {
  const [rows] = await batch(app.db, [
    select({ id: tables.moderationActions.id }, sql`FROM moderation_actions WHERE target_user_id = ${userId} AND action = 'suspend'
      AND EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND mod_state = 2) ORDER BY id DESC LIMIT 1`),
  ]);
  if (!rows[0]) throw notFound("Your account is not suspended");
  return rows[0].id;
}

/**
 * The cron's step (decision 029): accounts suspended more than 30 days ago are deleted as account
 * deletion deletes them, a few per run (each is one batch); a suspension lifted meanwhile stops it.
 */
export async function suspendedPastGrace(db: AppContext["db"], now: number, max = 5): Promise<{ id: string; guard: SQL }[]> {
  const cutoff = now - SUSPENSION_GRACE_MS;
  const [rows] = await batch(db, [
    select({ id: tables.users.id }, sql`FROM users INDEXED BY users_suspended_at WHERE suspended_at IS NOT NULL AND suspended_at <= ${cutoff} AND mod_state = 2 LIMIT ${max}`),
  ]);
  return rows.map((r) => ({ id: r.id, guard: sql`EXISTS (SELECT 1 FROM users WHERE id = ${r.id} AND mod_state = 2 AND suspended_at <= ${cutoff})` }));
}

