import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import { authPathFor, conflict, HttpError, newId, pagePathOf, unauthorized } from "../shared/index";
import { batch, built, controlLive, qb, rateLimit, returning, countAttempt, attempts, sql, tables, type AppContext } from "../shared/index.server";
import { MESSAGES, type Credentials, type User } from "./schema";
import { DUMMY_HASH, hashCostOf, hashPassword, verifyPassword } from "./password.server";
import { ABSOLUTE_LIFETIME_MS, IDLE_LIFETIME_MS, clearedSessionCookie, sessionCookie, signSessionToken } from "./session.server";
import { getClaims, getViewer, invalidSession, sessionCheck, type Claims, type Viewer } from "./session-check.server";
import { toUser, userFieldsOf } from "./user-row.server";

const { users, sessions, rateLimits } = tables;

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

/** What signing in to a suspended account answers (403). */
export const SUSPENDED_MESSAGE = "Your account is suspended. You can appeal it once at /appeal.";

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
  const row = { id: newId(now), userName: input.userName, passwordHash: await hashPassword(input.password, hashCostOf(app.env)), createdAt: now };
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
  const userColumns = { ...userFieldsOf(users), passwordHash: users.passwordHash, modState: users.modState };
  // one round trip: count this attempt against the IP, read the name's failures, find the user
  const [ip, nameFailures, clientFailures, found] = await batch(app.db, [
    returning(countAttempt(`login:ip:${app.ip}`, ipWindow), { count: rateLimits.count }),
    attempts(keys.name, keys.window),
    attempts(keys.client, keys.window),
    built(userColumns, qb.select(userColumns).from(users).where(sql`${users.userName} = ${input.userName} COLLATE NOCASE`)),
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

const isRead = (request: Request) => request.method === "GET" || request.method === "HEAD";

/**
 * The viewer's id for a read, without waiting for the database: the token is verified here and
 * the session check rides in the caller's own batch, and the request answers 401 / a redirect
 * instead if it does not hold (`confirmSession`, after the routes ran). Writes wait for the full
 * check first.
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
  void sessionCheck(app, claims);
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

/**
 * The request's verified token claims, for the writes whose own first batch carries the session
 * check (account.server.ts's password check): the session itself is NOT checked here, so a
 * caller must not write before that batch has said it holds.
 */
export async function requireApiClaims(app: AppContext, request: Request): Promise<Claims> {
  app.authFailure = "api";
  const claims = await getClaims(app, request);
  if (!claims) throw unauthorized();
  return claims;
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
