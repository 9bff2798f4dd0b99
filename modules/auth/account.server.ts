// Account changes that need the password again: change it, or delete the account for good.
import { and, eq, exists, isNull, ne } from "drizzle-orm";
import { badRequest, conflict, HttpError, unauthorized } from "../shared/index";
import { batch, built, controlLive, DELETED_ACCOUNT, inlineLimit, markDeleted, qb, returning, select, sendChanges, sql, tables, type AppContext, type SQL } from "../shared/index.server";
import { startPurge } from "./purge.server";
import { sessionCondition, type Claims } from "./session-check.server";
import { hashCostOf, hashPassword, verifyPassword } from "./password.server";
import { ACCOUNT_MESSAGES, type ChangePassword } from "./schema";

const { users, sessions } = tables;

/** Password checks of a signed-in account: a stolen session cannot guess the password quickly. */
const PASSWORD_CHECKS_PER_MINUTE = 10;

/**
 * The stored hash, once the request's session held and the given password matched it (401 or
 * 400 otherwise). One round trip: the session check rides in this batch (its statements do
 * nothing for a session that does not hold), so a password change or a deletion is two in all.
 */
async function checkPassword(app: AppContext, claims: Claims, password: string, wrong: string): Promise<string> {
  const session = sessionCondition(claims);
  const limit = inlineLimit(`password-check:${claims.userId}`, PASSWORD_CHECKS_PER_MINUTE, 60_000, Date.now(), session.holds);
  const [live, , rows, counts] = await batch(app.db, [
    session.statement,
    limit.upsert,
    select({ passwordHash: users.passwordHash }, sql`FROM users WHERE ${users.id} = ${claims.userId} AND ${limit.within} AND ${session.holds}`),
    limit.count,
  ]);
  if (!session.held(live)) throw unauthorized();
  const tooMany = limit.exceeded(counts[0]?.count);
  if (tooMany) throw new HttpError(429, tooMany.message.replace("requests", "attempts"), tooMany.headers);
  const hash = rows[0]?.passwordHash;
  if (!hash || !(await verifyPassword(password, hash))) throw badRequest(wrong);
  return hash;
}

/**
 * Change the password and revoke every other session of the user (the current one stays). One
 * batch, guarded by the hash that was checked: a concurrent change makes this one a 409.
 */
export async function changePassword(app: AppContext, claims: Claims, input: ChangePassword): Promise<void> {
  const { userId, sessionId } = claims;
  const oldHash = await checkPassword(app, claims, input.currentPassword, ACCOUNT_MESSAGES.currentPasswordWrong);
  const newHash = await hashPassword(input.newPassword, hashCostOf(app.env));
  const [changed, revoked] = await batch(app.db, [
    built({ id: users.id }, app.db.update(users).set({ passwordHash: newHash }).where(and(eq(users.id, userId), eq(users.passwordHash, oldHash))).returning({ id: users.id })),
    built(
      { id: sessions.id },
      app.db
        .update(sessions)
        .set({ revokedAt: Date.now() })
        .where(
          and(
            eq(sessions.userId, userId),
            ne(sessions.id, sessionId),
            isNull(sessions.revokedAt),
            exists(qb.select({ one: sql`1` }).from(users).where(and(eq(users.id, userId), eq(users.passwordHash, newHash)))),
          ),
        )
        .returning({ id: sessions.id }),
    ),
  ]);
  if (!changed[0]) throw conflict("Your password was just changed elsewhere. Please try again.");
  // the revoked sessions' open live sockets close with them
  if (revoked.length > 0) await controlLive(app, userId, { op: "sessions", userId, sessions: revoked.map((r) => r.id) });
}

/**
 * Delete the account (decision 032): one batch marks it — renamed to a name no route, mention or
 * sign-in can reach (the old name is free at once), no password, every session gone — and starts
 * the chain that removes everything it made and did through the change stream, a bounded slice a
 * step (modules/auth/purge.server.ts), its row last. As one cascade the delete read and wrote
 * every echo, like, follow and notification of the account in the request. Guarded by the checked
 * hash: a password changed in between deletes nothing (409).
 */
export async function deleteAccount(app: AppContext, claims: Claims, password: string): Promise<void> {
  const { userId } = claims;
  const hash = await checkPassword(app, claims, password, ACCOUNT_MESSAGES.passwordWrong);
  const now = Date.now();
  const marked = sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND deleted_at = ${now})`;
  const [deleted] = await batch(app.db, [
    returning(
      sql`UPDATE users SET deleted_at = ${now}, user_name = ${DELETED_NAME_PREFIX + userId}, password_hash = '', email = NULL, bio = ''
        WHERE id = ${userId} AND password_hash = ${hash} AND deleted_at IS NULL`,
      { id: users.id },
    ),
    sql`DELETE FROM sessions WHERE user_id = ${userId} AND ${marked}`,
    // its echos leave every list now, not as the purge reaches them (the moderation set's entry)
    markDeleted(`u:${userId}`, DELETED_ACCOUNT, marked),
    startPurge(userId, now, marked),
  ]);
  if (!deleted[0]) throw conflict("Your password was just changed elsewhere. Please try again.");
  sendChanges(app, [{ type: "purge", userId }]);
  // every socket the user opened, and every socket watching one of their scrolls, closes
  await controlLive(app, userId, { op: "sessions", userId, sessions: null, deleted: true });
}

/** A deleted account's name until its row goes: no user name can start with it (USER_NAME_PATTERN). */
export const DELETED_NAME_PREFIX = "~";

/**
 * Delete an account as deleteAccount does, without its password: the cron's end of a suspension
 * left 30 days (decision 029). `guard` (SQL) must still hold in the batch — the suspension not
 * lifted in between — or nothing is deleted. The account is marked and its purge chain started
 * (decision 032), as a deletion by its owner. Answers whether the account was deleted.
 */
export async function purgeAccount(app: Pick<AppContext, "db" | "env"> & { ctx?: ExecutionContext }, userId: string, guard: SQL): Promise<boolean> {
  const now = Date.now();
  const marked = sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND deleted_at = ${now})`;
  const [deleted] = await batch(app.db, [
    returning(
      sql`UPDATE users SET deleted_at = ${now}, user_name = ${DELETED_NAME_PREFIX + userId}, password_hash = '', email = NULL, bio = ''
        WHERE id = ${userId} AND deleted_at IS NULL AND ${guard}`,
      { id: users.id },
    ),
    sql`DELETE FROM sessions WHERE user_id = ${userId} AND ${marked}`,
    // its echos leave every list now, not as the purge reaches them (the moderation set's entry)
    markDeleted(`u:${userId}`, DELETED_ACCOUNT, marked),
    startPurge(userId, now, marked),
  ]);
  if (!deleted[0]) return false;
  // without an execution context (a test's pass) the chain's row alone starts it: the replay pass
  if (app.ctx) sendChanges({ env: app.env, ctx: app.ctx }, [{ type: "purge", userId }]);
  await controlLive(app, userId, { op: "sessions", userId, sessions: null, deleted: true });
  return true;
}
