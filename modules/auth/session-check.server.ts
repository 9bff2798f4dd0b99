// The session check (decisions 007, 019, 031): the request's token is verified here, and its
// session row (not revoked, not idle, not expired) is read as an ordinary statement of the
// request's first D1 batch — no round trip of its own. The data layer knows nothing of it: a
// loader's reads are answered as asked, and what the request answers when the session does not
// hold (a redirect to /login, a 401) is decided here, after the routes ran (`confirmSession`,
// called by the root middleware and before a live socket opens). Writes wait for the check
// before anything is written (auth.server.ts).
import { eq } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { redirect } from "react-router";
import { authPathFor, unauthorized } from "../shared/index";
import { batch, hasCookie, memoize, prepared, readCookie, select, sql, tables, type AppContext } from "../shared/index.server";
import type { User } from "./schema";
import { clearedSessionCookie, IDLE_LIFETIME_MS, sessionCookieOf, SessionTokenSchema, TOUCH_AFTER_MS, verifySessionToken } from "./session.server";
import { toUser, u, userFields } from "./user-row.server";

const { sessions } = tables;

/**
 * The signed-in user of a request, with what its session check read besides: the bell's unread
 * count rides in the same row (one statement fewer on every signed-in page).
 */
export type Viewer = User & { sessionId: string; unreadNotifications: number; isModerator: boolean };

export type Claims = { userId: string; sessionId: string; expiresAt: number };

/** The verified token's claims (signature and expiry only; no database). */
export function getClaims(app: AppContext, request: Request): Promise<Claims | null> {
  return memoize(app, "claims", async () => {
    const token = await readCookie(request, sessionCookieOf(app), SessionTokenSchema);
    return token ? verifySessionToken(app.env, token) : null;
  });
}

/**
 * What a request whose session does not hold answers: a redirect to /login on pages that need a
 * viewer, 401 on the API, and nothing at all (null) when no route asked for one (/login, /signup,
 * logout): there a stale cookie is just no cookie (issue 12).
 */
export function invalidSession(app: AppContext): unknown {
  if (!app.authFailure) return null;
  return app.authFailure === "page" ? redirect(authPathFor("/login", app.returnTo)) : unauthorized();
}

const s = alias(sessions, "s");

/** The live session row joined with its user: rendered once per isolate (decision 019). */
/** What makes a session live, over `sessions s JOIN users u` (values or placeholders). */
const liveWhere = (v: Record<"sessionId" | "userId" | "now" | "idleSince", unknown>) =>
  // a suspended account's sessions hold no more (decision 029: mod_state 2)
  sql`${s.id} = ${v.sessionId} AND ${s.userId} = ${v.userId} AND ${s.revokedAt} IS NULL
    AND ${s.expiresAt} > ${v.now} AND ${s.lastSeenAt} > ${v.idleSince}
    AND ${u.modState} < 2`;

const liveSession = prepared(["sessionId", "userId", "now", "idleSince"], (v) =>
  select(
    { ...userFields, unreadNotifications: u.unreadNotifications, lastSeenAt: s.lastSeenAt, isAdmin: u.isAdmin },
    sql`FROM sessions s JOIN users u ON ${u.id} = ${s.userId} WHERE ${liveWhere(v)}`,
  ),
);

/**
 * The session check as a condition that statements of a write's own batch carry, for the few
 * writes that must read before they write (a password check, issue 28): they ask nothing of a
 * session that does not hold, and the request saves the check's own round trip. The caller
 * answers 401 when `held(rows)` — the rows of `statement` in the same batch — is false.
 */
export function sessionCondition(claims: Claims) {
  const now = Date.now();
  const values = { sessionId: claims.sessionId, userId: claims.userId, now, idleSince: now - IDLE_LIFETIME_MS };
  return {
    statement: select({ one: sql<number>`1` }, sql`FROM sessions s JOIN users u ON ${u.id} = ${s.userId} WHERE ${liveWhere(values)}`),
    holds: sql`EXISTS (SELECT 1 FROM sessions s JOIN users u ON ${u.id} = ${s.userId} WHERE ${liveWhere(values)})`,
    held: (rows: unknown[]) => rows.length > 0,
  };
}

const CHECK = "session-check";

/**
 * The request's session check, once per request: queued now, so on a read it rides in the batch
 * of whatever the loaders queue in the same tick. Resolves to the session's row, or null.
 */
export function sessionCheck(app: AppContext, claims: Claims) {
  return memoize(app, CHECK, async () => {
    const now = Date.now();
    const [rows] = await batch(app.db, [liveSession({ sessionId: claims.sessionId, userId: claims.userId, now, idleSince: now - IDLE_LIFETIME_MS })]);
    const row = rows[0] ?? null;
    if (row && now - row.lastSeenAt > TOUCH_AFTER_MS) {
      app.ctx.waitUntil(
        app.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, claims.sessionId)).then(() => undefined),
      );
    }
    return row;
  });
}

/** The signed-in user of this request, or null: verified token + live session row. */
export function getViewer(app: AppContext, request: Request): Promise<Viewer | null> {
  return memoize(app, "viewer", async () => {
    const claims = await getClaims(app, request);
    if (!claims) return null;
    const session = await sessionCheck(app, claims);
    if (!session) return null;
    return {
      ...toUser(session),
      sessionId: claims.sessionId,
      unreadNotifications: Math.max(0, session.unreadNotifications),
      // moderation (decision 029): read in the session's own row, no statement of its own
      isModerator: session.isAdmin === 1,
    };
  });
}

/**
 * After a request's loaders or action ran: whether its session check held. Returns what to answer
 * instead when it did not — the request's invalid-session answer, or the storage error that
 * stopped the check — and null when the session held, when no route looked at it, or when no
 * route needed a viewer (a stale cookie on a guest page is no cookie).
 */
export async function confirmSession(app: AppContext): Promise<{ failure: unknown } | null> {
  const check = app.memo.get(CHECK) as ReturnType<typeof sessionCheck> | undefined;
  if (!check) return null;
  try {
    if (await check) return null;
    const failure = invalidSession(app);
    return failure ? { failure } : null;
  } catch (error) {
    return { failure: error };
  }
}

/**
 * The clearing Set-Cookie for a request that carried a session cookie which is no session (bad
 * signature, malformed, revoked, idle or expired), or null. Call after the routes ran: it reuses
 * their session check and asks nothing of D1 itself.
 */
export async function staleSessionCookie(app: AppContext, request: Request): Promise<string | null> {
  if (!(await hasCookie(request, sessionCookieOf(app)))) return null;
  if (await getClaims(app, request)) {
    const check = app.memo.get(CHECK) as ReturnType<typeof sessionCheck> | undefined;
    if (!check) return null; // no route looked at the session: nothing known about it
    const row = await check.catch(() => undefined);
    if (row !== null) return null; // live, or the check failed (storage): keep the cookie
  }
  return clearedSessionCookie(app);
}
