// Moderation (issue 32, docs/decisions/029-moderation.md): the queue of reported echos and
// appeals, the audit log, and the actions on an echo (hide) and on an account (warn, limit,
// suspend). Every action is one batch: its audit-log row first, guarded by what must hold
// (the target exists, is no moderator, is not already in that state); the state's writes run only
// when that row was written, so a refused action changes nothing and a logged one always happened.
import { badRequest, conflict, encodeCursor, isId, newId, notFound } from "../shared/index";
import { batch, batchUnderLimit, controlLive, echoDeleted, listCursor, select, sendChanges, sql, tables, type AppContext, type SQL } from "../shared/index.server";
import { refreshActor } from "../notification/index.server";
import type { Viewer } from "../auth/index.server";
import type { AccountAction, AccountState, AuditPage, ModerationAction, ModerationCase, QueuePage } from "./schema";

const { moderationActions } = tables;

/** The moderation set's bound: it is one row (D1 refuses rows past 2 MB); an entry is ~32 bytes. */
export const MAX_MODERATION_ENTRIES = 20_000;

const STATE: Record<number, AccountState> = { 0: "active", 1: "limited", 2: "suspended" };
export const accountState = (modState: number): AccountState => STATE[modState] ?? "active";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

type Page = { limit: number; cursor?: string };

function pageOf<T>(rows: T[], req: Page, key: (row: T) => Record<string, string | number>) {
  const shown = rows.slice(0, req.limit);
  const last = shown[shown.length - 1];
  const hasMore = rows.length > req.limit;
  return { shown, pagination: { limit: req.limit, hasMore, nextCursor: hasMore && last ? encodeCursor(key(last)) : null } };
}

// ── The queue ────────────────────────────────────────────────────────────────────────────────

const caseFields = {
  id: tables.reportCases.id,
  kind: tables.reportCases.kind,
  echoId: tables.reportCases.echoId,
  echoContent: sql<string | null>`e.content`,
  // hidden by a moderator: the echo's entry in the moderation set (one row a statement, decision 029)
  echoHidden: sql<number>`ifnull(json_extract((SELECT entries FROM moderation_set WHERE id = 1), '$."e:' || report_cases.echo_id || '"') = 1, 0)`,
  userId: tables.reportCases.userId,
  userName: sql<string>`u.user_name`,
  modState: sql<number>`u.mod_state`,
  reportsCount: tables.reportCases.reportsCount,
  latestReason: tables.reportCases.latestReason,
  latestAt: tables.reportCases.latestAt,
  assigneeId: tables.reportCases.assigneeId,
  assigneeName: sql<string | null>`a.user_name`,
  resolvedAt: tables.reportCases.resolvedAt,
  note: tables.reportCases.note,
};
const caseFrom = sql`FROM report_cases JOIN users u ON u.id = report_cases.user_id
  LEFT JOIN users a ON a.id = report_cases.assignee_id LEFT JOIN echos e ON e.id = report_cases.echo_id`;

type CaseRow = { id: string; kind: string; echoId: string | null; echoContent: string | null; echoHidden: number; userId: string; userName: string; modState: number; reportsCount: number; latestReason: string; latestAt: number; assigneeId: string | null; assigneeName: string | null; resolvedAt: number | null; note: string | null };

function toCase(r: CaseRow): ModerationCase {
  return {
    _id: r.id,
    kind: r.kind === "appeal" ? "appeal" : "echo",
    echoId: r.echoId,
    echoContent: r.echoContent,
    echoHidden: r.echoHidden === 1,
    user: { _id: r.userId, userName: r.userName, state: accountState(r.modState) },
    reportsCount: r.reportsCount,
    latestReason: r.latestReason,
    latestAt: new Date(r.latestAt).toISOString(),
    assignee: r.assigneeId ? { _id: r.assigneeId, userName: r.assigneeName ?? "" } : null,
    resolvedAt: iso(r.resolvedAt),
    note: r.note,
  };
}

/**
 * The open cases, the latest report first, by cursor (its time and id): one range of the partial
 * index report_cases_open. With `userId`, every case of that account (open or not): the queue
 * grouped by account, on report_cases_user.
 */
export async function queue(app: AppContext, req: Page & { userId?: string }): Promise<QueuePage> {
  const after = listCursor(req);
  if (after && after.a === undefined) throw badRequest("cursor is invalid");
  if (req.userId !== undefined && !isId(req.userId)) throw notFound("User not found");
  const seek = after ? sql`AND (report_cases.latest_at, report_cases.id) < (${after.a}, ${after.id})` : sql``;
  const which = req.userId !== undefined ? sql`report_cases.user_id = ${req.userId}` : sql`report_cases.resolved_at IS NULL`;
  const [rows] = await batch(app.db, [
    select(caseFields, sql`${caseFrom} WHERE ${which} ${seek} ORDER BY report_cases.latest_at DESC, report_cases.id DESC LIMIT ${req.limit + 1}`),
  ]);
  const { shown, pagination } = pageOf(rows, req, (r) => ({ id: r.id, a: r.latestAt }));
  return { cases: shown.map(toCase), pagination };
}

const logRow = (
  moderator: Viewer,
  action: string,
  fields: { target: SQL; targetName: SQL; echoId: SQL; caseId: SQL; reason: string; from: SQL },
  id = newId(),
) =>
  sql`INSERT INTO moderation_actions (id, moderator_id, moderator_name, action, target_user_id, target_user_name, echo_id, case_id, reason, created_at)
    SELECT ${id}, ${moderator._id}, ${moderator.userName}, ${action}, ${fields.target}, ${fields.targetName}, ${fields.echoId}, ${fields.caseId}, ${fields.reason}, ${Date.now()}
    ${fields.from}`;

const logged = (id: string) => sql`EXISTS (SELECT 1 FROM moderation_actions WHERE id = ${id})`;

async function oneCase(app: AppContext, id: string, writes: (within: SQL) => SQL[], moderator: Viewer) {
  const results = await batchUnderLimit(app.db, "moderate", moderator._id, (within) => [
    ...writes(within),
    select(caseFields, sql`${caseFrom} WHERE report_cases.id = ${id}`),
  ]);
  const row = results[results.length - 1]![0] as CaseRow | undefined;
  if (!row) throw notFound("Case not found");
  return row;
}

/** Take a case: it is yours until resolved (another moderator may take it over; each take is logged). */
export async function assignCase(app: AppContext, moderator: Viewer, id: string): Promise<ModerationCase> {
  if (!isId(id)) throw notFound("Case not found");
  const logId = newId();
  const row = await oneCase(app, id, (within) => [
    logRow(moderator, "assign", {
      target: sql`c.user_id`, targetName: sql`(SELECT user_name FROM users WHERE id = c.user_id)`, echoId: sql`c.echo_id`, caseId: sql`c.id`, reason: "",
      from: sql`FROM report_cases c WHERE c.id = ${id} AND c.resolved_at IS NULL AND (c.assignee_id IS NULL OR c.assignee_id <> ${moderator._id}) AND ${within}`,
    }, logId),
    sql`UPDATE report_cases SET assignee_id = ${moderator._id} WHERE id = ${id} AND ${logged(logId)}`,
  ], moderator);
  if (row.resolvedAt !== null) throw conflict("This case is already resolved");
  return toCase(row);
}

/** Close a case with a note (the audit log keeps it; a new report reopens an echo's case). */
export async function resolveCase(app: AppContext, moderator: Viewer, id: string, note: string): Promise<ModerationCase> {
  if (!isId(id)) throw notFound("Case not found");
  const logId = newId();
  const now = Date.now();
  const row = await oneCase(app, id, (within) => [
    logRow(moderator, "resolve", {
      target: sql`c.user_id`, targetName: sql`(SELECT user_name FROM users WHERE id = c.user_id)`, echoId: sql`c.echo_id`, caseId: sql`c.id`, reason: note,
      from: sql`FROM report_cases c WHERE c.id = ${id} AND c.resolved_at IS NULL AND ${within}`,
    }, logId),
    sql`UPDATE report_cases SET resolved_at = ${now}, resolved_by = ${moderator._id}, note = ${note}, assignee_id = ifnull(assignee_id, ${moderator._id})
      WHERE id = ${id} AND ${logged(logId)}`,
  ], moderator);
  if (row.resolvedAt !== now) throw conflict("This case is already resolved");
  return toCase(row);
}

// ── The audit log ────────────────────────────────────────────────────────────────────────────

type ActionRow = typeof moderationActions.$inferSelect;

export function toAction(r: ActionRow): ModerationAction {
  return {
    _id: r.id,
    moderator: { _id: r.moderatorId, userName: r.moderatorName },
    action: r.action,
    user: r.targetUserId ? { _id: r.targetUserId, userName: r.targetUserName ?? "" } : null,
    echoId: r.echoId,
    caseId: r.caseId,
    reason: r.reason,
    createdAt: new Date(r.createdAt).toISOString(),
    appeal: r.appeal,
    appealedAt: iso(r.appealedAt),
  };
}

/** Every moderator action, newest first, by cursor (the id: ids sort by creation). */
export async function auditLog(app: AppContext, req: Page): Promise<AuditPage> {
  const after = listCursor(req);
  const seek = after ? sql`WHERE id < ${after.id}` : sql``;
  const [rows] = await batch(app.db, [select(actionColumns, sql`FROM moderation_actions ${seek} ORDER BY id DESC LIMIT ${req.limit + 1}`)]);
  const { shown, pagination } = pageOf(rows, req, (r) => ({ id: r.id }));
  return { actions: shown.map(toAction), pagination };
}

export const actionColumns = {
  id: moderationActions.id,
  moderatorId: moderationActions.moderatorId,
  moderatorName: moderationActions.moderatorName,
  action: moderationActions.action,
  targetUserId: moderationActions.targetUserId,
  targetUserName: moderationActions.targetUserName,
  echoId: moderationActions.echoId,
  caseId: moderationActions.caseId,
  reason: moderationActions.reason,
  createdAt: moderationActions.createdAt,
  appeal: moderationActions.appeal,
  appealedAt: moderationActions.appealedAt,
};

// ── Actions ──────────────────────────────────────────────────────────────────────────────────

const SET_ROW = sql`(SELECT entries FROM moderation_set WHERE id = 1)`;
const setRoom = sql`ifnull((SELECT count(*) FROM json_each(${SET_ROW})), 0) < ${MAX_MODERATION_ENTRIES}`;
// the value is a literal integer: D1 binds numbers as REAL, and the lists compare "[1,null]" (moderated.server.ts)
const setEntry = (key: SQL, value: number, when: SQL) =>
  sql`INSERT INTO moderation_set (id, entries) SELECT 1, json_object(${key}, ${sql.raw(String(Math.trunc(value)))}) WHERE ${when}
    ON CONFLICT (id) DO UPDATE SET entries = json_set(entries, '$."' || ${key} || '"', ${sql.raw(String(Math.trunc(value)))})`;
const dropEntry = (key: SQL, when: SQL) => sql`UPDATE moderation_set SET entries = json_remove(entries, '$."' || ${key} || '"') WHERE id = 1 AND ${when}`;

/** What an account action needs of the account's state, what it sets, and what a refusal says. */
const ACCOUNT: Record<AccountAction, { from: SQL; to: number | null; refused: string }> = {
  warn: { from: sql`t.mod_state <> 2`, to: null, refused: "This account is suspended" },
  limit: { from: sql`t.mod_state = 0`, to: 1, refused: "This account is already limited or suspended" },
  unlimit: { from: sql`t.mod_state = 1`, to: 0, refused: "This account is not limited" },
  suspend: { from: sql`t.mod_state <> 2`, to: 2, refused: "This account is already suspended" },
  unsuspend: { from: sql`t.mod_state = 2`, to: 0, refused: "This account is not suspended" },
};

export type AccountResult = { user: { _id: string; userName: string; state: AccountState }; action: ModerationAction };

/**
 * Warn, limit, suspend (or lift them): one batch. A suspension also ends every session of the
 * account (and, after the batch, its live sockets); its echos leave every list at once through the
 * moderation set, and the cron deletes the account 30 days later unless it is lifted.
 */
export async function actOnAccount(app: AppContext, moderator: Viewer, userId: string, action: AccountAction, reason: string): Promise<AccountResult> {
  if (!isId(userId)) throw notFound("User not found");
  if (userId === moderator._id) throw badRequest("You cannot moderate your own account");
  const spec = ACCOUNT[action];
  const logId = newId();
  const now = Date.now();
  const key = sql`${"u:" + userId}`;
  const done = logged(logId);
  // the groups of the account's notifications: their shown state recomputed through the change
  // stream (decision 015, "Shown groups kept on write"), when the action changed its state
  const notices = refreshActor(userId, now);
  const [, , , , read, log] = await batchUnderLimit(app.db, "moderate", moderator._id, (within) => [
    logRow(moderator, action, {
      target: sql`t.id`, targetName: sql`t.user_name`, echoId: sql`NULL`, caseId: sql`NULL`, reason,
      from: sql`FROM users t WHERE t.id = ${userId} AND t.deleted_at IS NULL AND t.is_admin = 0 AND ${spec.from} AND ${within} ${spec.to ? sql`AND ${setRoom}` : sql``}`,
    }, logId),
    spec.to === null ? sql`SELECT 1 WHERE 0` : spec.to === 0 ? dropEntry(key, done) : setEntry(key, spec.to, done),
    spec.to === null
      ? sql`SELECT 1 WHERE 0`
      : sql`UPDATE users SET mod_state = ${spec.to}, suspended_at = ${spec.to === 2 ? now : null} WHERE id = ${userId} AND ${done}`,
    action === "suspend" ? sql`UPDATE sessions SET revoked_at = ${now} WHERE user_id = ${userId} AND revoked_at IS NULL AND ${done}` : sql`SELECT 1 WHERE 0`,
    select({ id: tables.users.id, userName: tables.users.userName, modState: tables.users.modState, isAdmin: tables.users.isAdmin }, sql`FROM users WHERE id = ${userId} AND deleted_at IS NULL`),
    select(actionColumns, sql`FROM moderation_actions WHERE id = ${logId}`),
    ...(spec.to === null ? [] : [notices.start(done)]),
  ]);
  const user = read[0];
  if (!user) throw notFound("User not found");
  if (!log[0]) {
    if (user.isAdmin === 1) throw badRequest("Moderators cannot be moderated; take their role away first");
    // the state allowed the action, so only the set's bound refused it
    const allowed = { warn: user.modState !== 2, limit: user.modState === 0, unlimit: user.modState === 1, suspend: user.modState !== 2, unsuspend: user.modState === 2 }[action];
    if (allowed && spec.to) throw badRequest("The moderation set is full");
    throw conflict(spec.refused);
  }
  if (action === "suspend") await controlLive(app, userId, { op: "sessions", userId, sessions: null });
  if (spec.to !== null) sendChanges(app, [notices.change]);
  return { user: { _id: user.id, userName: user.userName, state: accountState(user.modState) }, action: toAction(log[0]) };
}

export type EchoResult = { echoId: string; hidden: boolean; action: ModerationAction };

/** Hide an echo from everyone but its author (who reads the reason), or show it again. */
export async function actOnEcho(app: AppContext, moderator: Viewer, echoId: string, hide: boolean, reason: string): Promise<EchoResult> {
  if (!isId(echoId)) throw notFound("Echo not found");
  const logId = newId();
  const key = sql`${"e:" + echoId}`;
  // only a moderator's entry (1): a deleted echo's (decision 032) is no hiding to undo
  const isHidden = sql`ifnull(json_extract(${SET_ROW}, ${`$."e:${echoId}"`}), 0) = 1`;
  const deleted = echoDeleted("e.id");
  const [, , read, log] = await batchUnderLimit(app.db, "moderate", moderator._id, (within) => [
    logRow(moderator, hide ? "hide" : "unhide", {
      target: sql`e.author_id`, targetName: sql`(SELECT user_name FROM users WHERE id = e.author_id)`, echoId: sql`e.id`, caseId: sql`NULL`, reason,
      from: sql`FROM echos e WHERE e.id = ${echoId} AND NOT ${deleted} AND ${within} AND ${hide ? sql`NOT ${isHidden} AND ${setRoom}` : isHidden}`,
    }, logId),
    hide ? setEntry(key, 1, logged(logId)) : dropEntry(key, logged(logId)),
    select({ id: sql<string>`e.id`, hidden: sql<number>`${isHidden}` }, sql`FROM echos e WHERE e.id = ${echoId} AND NOT ${deleted}`),
    select(actionColumns, sql`FROM moderation_actions WHERE id = ${logId}`),
  ]);
  if (!read[0]) throw notFound("Echo not found");
  if (!log[0]) {
    if (hide && read[0].hidden !== 1) throw badRequest("The moderation set is full");
    throw conflict(hide ? "This echo is already hidden" : "This echo is not hidden");
  }
  return { echoId, hidden: read[0].hidden === 1, action: toAction(log[0]) };
}
