import { eq } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { redirect } from "react-router";
import { authPathFor, conflict, HttpError, newId, pagePathOf, unauthorized } from "../shared/index";
import {
  batch,
  controlLive,
  hasCookie,
  memoize,
  prepared,
  rateLimit,
  readCookie,
  registerSessionProbe,
  returning,
  countAttempt,
  attempts,
  select,
  sql,
  tables,
  type AppContext,
} from "../shared/index.server";
import { MESSAGES, type Credentials, type User } from "./schema";
import { DUMMY_HASH, hashPassword, verifyPassword } from "./password.server";
import {
  ABSOLUTE_LIFETIME_MS,
  IDLE_LIFETIME_MS,
  TOUCH_AFTER_MS,
  clearedSessionCookie,
  sessionCookie,
  sessionCookieOf,
  SessionTokenSchema,
  signSessionToken,
  verifySessionToken,
} from "./session.server";

const { users, sessions, rateLimits } = tables;

/**
 * The signed-in user of a request, with what its session check read besides: the bell's unread
 * count rides in the same row (one statement fewer on every signed-in page).
 */
export type Viewer = User & { sessionId: string; unreadNotifications: number; isModerator: boolean };

/** Sign-ups of one name per minute (a taken name fails anyway; this only slows probing). */
const USER_NAME_LIMIT_PER_MINUTE = 10;
/**
 * Failed logins: a client (name + IP) that failed this often in a minute is refused for the name.
 * Past NAME_FAILURE_CEILING failures of a name from anywhere (a distributed attack), any client
 * that failed for it at all is refused; a client with no failure, the real owner, still gets its
 * password checked. See docs/security.md ("Login limits never lock the owner out").
 */
const NAME_IP_FAILURES_PER_MINUTE = 10;
const NAME_FAILURE_CEILING_PER_MINUTE = 100;
const LOGIN_WINDOW_MS = 60_000;

type UserRow = typeof users.$inferSelect;

/** What signing in to a suspended account answers (403). */
export const SUSPENDED_MESSAGE = "Your account is suspended. You can appeal it once at /appeal.";

export function toUser(row: Pick<UserRow, "id" | "userName" | "email" | "bio" | "createdAt" | "followersCount" | "followingCount">): User {
  return {
    _id: row.id,
    userName: row.userName,
    email: row.email,
    bio: row.bio,
    createdAt: new Date(row.createdAt).toISOString(),
    followersCount: row.followersCount,
    followingCount: row.followingCount,
  };
}

async function limitSignup(app: AppContext, userName: string) {
  const ipLimit = Number(app.env.AUTH_IP_LIMIT_PER_MINUTE) || 30;
  await rateLimit(app.db, [
    { key: `signup:ip:${app.ip}`, limit: ipLimit, windowMs: 60_000 },
    { key: `signup:name:${userName.toLowerCase()}`, limit: USER_NAME_LIMIT_PER_MINUTE, windowMs: 60_000 },
  ]);
}

async function startSession(app: AppContext, userId: string, now: number) {
  const sessionId = newId(now);
  const token = await signSessionToken(app.env, userId, sessionId, now);
  const row = { id: sessionId, userId, createdAt: now, lastSeenAt: now, expiresAt: now + ABSOLUTE_LIFETIME_MS };
  return { sessionId, row, cookie: await sessionCookie(app, token) };
}

function isUniqueViolation(error: unknown): boolean {
  const text = String((error as { cause?: unknown })?.cause ?? "") + String(error);
  return /UNIQUE constraint failed/i.test(text);
}

export async function signup(app: AppContext, input: Credentials): Promise<{ user: User; cookie: string }> {
  await limitSignup(app, input.userName);
  const taken = await app.db
    .select({ id: users.id })
    .from(users)
    .where(sql`${users.userName} = ${input.userName} COLLATE NOCASE`)
    .get();
  if (taken) throw conflict(MESSAGES.userNameTaken);
  const now = Date.now();
  const row = { id: newId(now), userName: input.userName, passwordHash: await hashPassword(input.password), createdAt: now };
  const session = await startSession(app, row.id, now);
  try {
    await app.db.batch([app.db.insert(users).values(row), app.db.insert(sessions).values(session.row)]);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(MESSAGES.userNameTaken);
    throw error;
  }
  const user = toUser({ ...row, email: null, bio: "", followersCount: 0, followingCount: 0 });
  return { user, cookie: session.cookie };
}

/** The fixed-window counter keys and window of login failures for a name (all, and this client's). */
function failureKeys(app: AppContext, userName: string, now: number) {
  const name = userName.toLowerCase();
  return { name: `login-fail:name:${name}`, client: `login-fail:client:${name}:${app.ip}`, window: now - (now % LOGIN_WINDOW_MS) };
}

/** A user's public columns, for statements written as SQL over `users u`. */
const u = alias(users, "u");
const userFields = {
  id: u.id,
  userName: u.userName,
  email: u.email,
  bio: u.bio,
  createdAt: u.createdAt,
  followersCount: u.followersCount,
  followingCount: u.followingCount,
};

function tooManyLogins(now: number): HttpError {
  const retryAfter = Math.max(1, Math.ceil((LOGIN_WINDOW_MS - (now % LOGIN_WINDOW_MS)) / 1000));
  return new HttpError(429, `Too many attempts. Try again in ${retryAfter} seconds.`, { "Retry-After": String(retryAfter) });
}

/**
 * The account whose name and password these are, under the login limits (429) or 401: what
 * signing in and a suspended account's appeal (decision 029) check.
 */
export async function checkCredentials(app: AppContext, input: Credentials, now = Date.now()) {
  const ipLimit = Number(app.env.AUTH_IP_LIMIT_PER_MINUTE) || 30;
  const keys = failureKeys(app, input.userName, now);
  const ipWindow = now - (now % LOGIN_WINDOW_MS);
  // one round trip: count this attempt against the IP, read the name's failures, find the user
  const [ip, nameFailures, clientFailures, found] = await batch(app.db, [
    returning(countAttempt(`login:ip:${app.ip}`, ipWindow), { count: rateLimits.count }),
    attempts(keys.name, keys.window),
    attempts(keys.client, keys.window),
    select({ ...userFields, passwordHash: u.passwordHash, modState: u.modState }, sql`FROM users u WHERE ${u.userName} = ${input.userName} COLLATE NOCASE`),
  ]);
  const failedHere = clientFailures[0]?.count ?? 0;
  const underAttack = (nameFailures[0]?.count ?? 0) >= NAME_FAILURE_CEILING_PER_MINUTE;
  if ((ip[0]?.count ?? 0) > ipLimit || failedHere >= NAME_IP_FAILURES_PER_MINUTE || (underAttack && failedHere > 0)) {
    throw tooManyLogins(now);
  }
  const row = found[0];
  // Unknown names pay for a hash too, so timing does not reveal which names exist.
  const ok = await verifyPassword(input.password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !ok) {
    await batch(app.db, [countAttempt(keys.name, keys.window), countAttempt(keys.client, keys.window)]);
    throw new HttpError(401, "Invalid username or password");
  }
  return row;
}

export async function login(app: AppContext, input: Credentials): Promise<{ user: User; cookie: string }> {
  const now = Date.now();
  const row = await checkCredentials(app, input, now);
  // a suspended account cannot sign in (decision 029); only the right password learns it
  if (row.modState === 2) throw new HttpError(403, SUSPENDED_MESSAGE);
  const session = await startSession(app, row.id, now);
  await app.db.insert(sessions).values(session.row);
  return { user: toUser(row), cookie: session.cookie };
}

/** Revoke the request's session server-side and clear the cookie. */
export async function logout(app: AppContext, request: Request): Promise<string> {
  const viewer = await getViewer(app, request);
  if (viewer) {
    await app.db.update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, viewer.sessionId));
    // the session's open live sockets close with it
    await controlLive(app, viewer._id, { op: "sessions", userId: viewer._id, sessions: [viewer.sessionId] });
  }
  return clearedSessionCookie(app);
}

type Claims = { userId: string; sessionId: string; expiresAt: number };

/** The verified token's claims (signature and expiry only; no database). */
function getClaims(app: AppContext, request: Request): Promise<Claims | null> {
  return memoize(app, "claims", async () => {
    const token = await readCookie(request, sessionCookieOf(app), SessionTokenSchema);
    return token ? verifySessionToken(app.env, token) : null;
  });
}

const isRead = (request: Request) => request.method === "GET" || request.method === "HEAD";

/**
 * What a request whose session does not hold answers: a redirect to /login on pages that need a
 * viewer, 401 on the API, and nothing at all (null) when no route asked for one (/login, /signup,
 * logout): there a stale cookie is just no cookie (issue 12).
 */
function invalidSession(app: AppContext): unknown {
  if (!app.authFailure) return null;
  return app.authFailure === "page" ? redirect(authPathFor("/login", app.returnTo)) : unauthorized();
}

/**
 * The session check as a statement: the live (not revoked, not expired, not idle) session row
 * joined with its user. On reads it rides in the request's first D1 batch (no round trip of its
 * own); on writes it runs alone before anything is written.
 */
const s = alias(sessions, "s");

const liveSession = prepared(["sessionId", "userId", "now", "idleSince"], (v) =>
  select(
    { ...userFields, unreadNotifications: u.unreadNotifications, lastSeenAt: s.lastSeenAt, isAdmin: u.isAdmin },
    sql`FROM sessions s JOIN users u ON ${u.id} = ${s.userId}
      WHERE ${s.id} = ${v.sessionId} AND ${s.userId} = ${v.userId} AND ${s.revokedAt} IS NULL
        AND ${s.expiresAt} > ${v.now} AND ${s.lastSeenAt} > ${v.idleSince}
        AND ${u.modState} < 2`,
  ),
);

function sessionProbe(app: AppContext, claims: Claims) {
  const now = Date.now();
  const stmt = liveSession({ sessionId: claims.sessionId, userId: claims.userId, now, idleSince: now - IDLE_LIFETIME_MS });
  const probe = registerSessionProbe(app.db, stmt, () => invalidSession(app));
  return memoize(app, "session-touch", async () => {
    const row = await probe;
    if (row && now - row.lastSeenAt > TOUCH_AFTER_MS) {
      app.ctx.waitUntil(
        app.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, claims.sessionId)).then(() => undefined),
      );
    }
    return row;
  });
}

/**
 * The clearing Set-Cookie for a request that carried a session cookie which is no session (bad
 * signature, malformed, revoked, idle or expired), or null. Call after the routes ran: it reuses
 * their session check and asks nothing of D1 itself.
 */
export async function staleSessionCookie(app: AppContext, request: Request): Promise<string | null> {
  if (!(await hasCookie(request, sessionCookieOf(app)))) return null;
  if (await getClaims(app, request)) {
    const check = app.memo.get("session-touch");
    if (!check) return null; // no route looked at the session: nothing known about it
    const row = await check.catch(() => undefined);
    if (row !== null) return null; // live, or the check failed (storage): keep the cookie
  }
  return clearedSessionCookie(app);
}

/** The signed-in user of this request, or null: verified token + live session row. */
export function getViewer(app: AppContext, request: Request): Promise<Viewer | null> {
  return memoize(app, "viewer", async () => {
    const claims = await getClaims(app, request);
    if (!claims) return null;
    const row = sessionProbe(app, claims);
    // flush now (a read shares the batch with whatever else is queued in this tick)
    await batch(app.db, []).catch(() => undefined);
    const session = await row;
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
 * The viewer's id for a read, without waiting for the database: the token is verified here and
 * the session check rides in the caller's own batch, which fails (401 / redirect) if it is not
 * valid. Writes wait for the full check first.
 */
async function viewerId(app: AppContext, request: Request, failure: "api" | "page"): Promise<string> {
  app.authFailure = failure;
  if (failure === "page") app.returnTo = pagePathOf(request);
  if (!isRead(request)) {
    const viewer = await getViewer(app, request);
    if (!viewer) throw invalidSession(app);
    return viewer._id;
  }
  const claims = await getClaims(app, request);
  if (!claims) throw invalidSession(app);
  void sessionProbe(app, claims);
  return claims.userId;
}

/**
 * The request's session as a live socket keeps it (decision 016): who, which session, and when
 * it ends at the latest — its absolute expiry, or its idle limit counted from now (the handshake
 * is a use of the session). Call after the session was confirmed.
 */
export async function liveSessionOf(app: AppContext, request: Request): Promise<Claims> {
  const claims = await getClaims(app, request);
  if (!claims) throw unauthorized();
  return { ...claims, expiresAt: Math.min(claims.expiresAt, Date.now() + IDLE_LIFETIME_MS) };
}

export const requireApiViewerId = (app: AppContext, request: Request) => viewerId(app, request, "api");
export const requirePageViewerId = (app: AppContext, request: Request) => viewerId(app, request, "page");

/** For /api routes: the viewer or a 401. */
export async function requireApiViewer(app: AppContext, request: Request): Promise<Viewer> {
  app.authFailure = "api";
  const viewer = await getViewer(app, request);
  if (!viewer) throw unauthorized();
  return viewer;
}

/**
 * For pages: whether the viewer follows anyone (Following is then home's default). Read by the
 * session check itself, so it costs no statement of its own.
 */
export async function viewerFollowsAnyone(app: AppContext, request: Request): Promise<boolean> {
  return (await requirePageViewer(app, request)).followingCount > 0;
}

/** For pages: the viewer or a redirect to /login. */
export async function requirePageViewer(app: AppContext, request: Request): Promise<Viewer> {
  app.authFailure = "page";
  app.returnTo = pagePathOf(request);
  const viewer = await getViewer(app, request);
  if (!viewer) throw redirect(authPathFor("/login", app.returnTo));
  return viewer;
}
