// Account changes that need the password again: change it, or delete the account for good.
import { and, eq, exists, isNull, ne } from "drizzle-orm";
import { badRequest, conflict } from "../shared/index";
import { batch, built, controlLive, qb, rateLimit, returning, sql, tables, type AppContext } from "../shared/index.server";
import { hashCostOf, hashPassword, verifyPassword } from "./password.server";
import { ACCOUNT_MESSAGES, type ChangePassword } from "./schema";

const { users, sessions } = tables;

/** Password checks of a signed-in account: a stolen session cannot guess the password quickly. */
const PASSWORD_CHECKS_PER_MINUTE = 10;

/** The stored hash, once the given password matched it (400 otherwise). */
async function checkPassword(app: AppContext, userId: string, password: string, wrong: string): Promise<string> {
  await rateLimit(app.db, [{ key: `password-check:${userId}`, limit: PASSWORD_CHECKS_PER_MINUTE, windowMs: 60_000 }]);
  const fields = { passwordHash: users.passwordHash };
  const [rows] = await batch(app.db, [built(fields, qb.select(fields).from(users).where(eq(users.id, userId)))]);
  const hash = rows[0]?.passwordHash;
  if (!hash || !(await verifyPassword(password, hash))) throw badRequest(wrong);
  return hash;
}

/**
 * Change the password and revoke every other session of the user (the current one stays). One
 * batch, guarded by the hash that was checked: a concurrent change makes this one a 409.
 */
export async function changePassword(app: AppContext, userId: string, sessionId: string, input: ChangePassword): Promise<void> {
  const oldHash = await checkPassword(app, userId, input.currentPassword, ACCOUNT_MESSAGES.currentPasswordWrong);
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
 * Delete the account and everything it made, in one batch (one transaction). Deleting the user
 * row cascades to its sessions, echos (and their likes, tags, shares, reports, rankings, places in
 * curations and in followers' Following timelines), likes, shares, reports, scrolls (and their
 * items and followers), follows both ways, the user's own Following timeline and notifications
 * (sent and received); the counter triggers fire for each cascaded row, so every count stays
 * exact (others' notification groups and unread counts too), and the echos' delete trigger takes
 * them out of the search index (migration 0013). Shares have no delete trigger (a share is never
 * undone), so the user's shares of others' echos are subtracted first. Both statements are
 * guarded by the checked hash: a password changed in between deletes nothing (409).
 */
export async function deleteAccount(app: AppContext, userId: string, password: string): Promise<void> {
  const hash = await checkPassword(app, userId, password, ACCOUNT_MESSAGES.passwordWrong);
  const guard = sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND password_hash = ${hash})`;
  const [, , deleted] = await batch(app.db, [
    // the echos' rows in others' timelines do not cascade (migration 0024)
    sql`DELETE FROM timeline_entries WHERE echo_id IN (SELECT id FROM echos WHERE author_id = ${userId}) AND ${guard}`,
    sql`UPDATE echos SET shares_count = shares_count - 1
        WHERE id IN (SELECT echo_id FROM shares WHERE user_id = ${userId}) AND author_id <> ${userId} AND ${guard}`,
    returning(sql`DELETE FROM users WHERE id = ${userId} AND password_hash = ${hash}`, { id: users.id }),
  ]);
  if (!deleted[0]) throw conflict("Your password was just changed elsewhere. Please try again.");
  // every socket the user opened, and every socket watching one of their scrolls, closes
  await controlLive(app, userId, { op: "sessions", userId, sessions: null, deleted: true });
}
