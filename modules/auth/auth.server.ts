import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { redirect } from "react-router";
import { conflict, HttpError, newId, unauthorized } from "../shared/index";
import { memoize, rateLimit, tables, type AppContext } from "../shared/index.server";
import type { Credentials, User } from "./schema";
import { DUMMY_HASH, hashPassword, verifyPassword } from "./password.server";
import {
  ABSOLUTE_LIFETIME_MS,
  IDLE_LIFETIME_MS,
  TOUCH_AFTER_MS,
  clearedSessionCookie,
  cookieName,
  readCookie,
  sessionCookie,
  signSessionToken,
  verifySessionToken,
} from "./session.server";

const { users, sessions } = tables;

export type Viewer = User & { sessionId: string };

const USER_NAME_LIMIT_PER_MINUTE = 10;

type UserRow = typeof users.$inferSelect;

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

async function limitAuth(app: AppContext, action: "login" | "signup", userName: string) {
  const ipLimit = Number(app.env.AUTH_IP_LIMIT_PER_MINUTE) || 30;
  await rateLimit(app.db, [
    { key: `${action}:ip:${app.ip}`, limit: ipLimit, windowMs: 60_000 },
    { key: `${action}:name:${userName.toLowerCase()}`, limit: USER_NAME_LIMIT_PER_MINUTE, windowMs: 60_000 },
  ]);
}

async function startSession(app: AppContext, userId: string, now: number) {
  const sessionId = newId(now);
  const token = await signSessionToken(app.env, userId, sessionId, now);
  const row = { id: sessionId, userId, createdAt: now, lastSeenAt: now, expiresAt: now + ABSOLUTE_LIFETIME_MS };
  return { sessionId, row, cookie: sessionCookie(app, token) };
}

function isUniqueViolation(error: unknown): boolean {
  const text = String((error as { cause?: unknown })?.cause ?? "") + String(error);
  return /UNIQUE constraint failed/i.test(text);
}

export async function signup(app: AppContext, input: Credentials): Promise<{ user: User; cookie: string }> {
  await limitAuth(app, "signup", input.userName);
  const taken = await app.db
    .select({ id: users.id })
    .from(users)
    .where(sql`${users.userName} = ${input.userName} COLLATE NOCASE`)
    .get();
  if (taken) throw conflict("Username is already taken");
  const now = Date.now();
  const row = { id: newId(now), userName: input.userName, passwordHash: await hashPassword(input.password), createdAt: now };
  const session = await startSession(app, row.id, now);
  try {
    await app.db.batch([app.db.insert(users).values(row), app.db.insert(sessions).values(session.row)]);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("Username is already taken");
    throw error;
  }
  const user = toUser({ ...row, email: null, bio: "", followersCount: 0, followingCount: 0 });
  return { user, cookie: session.cookie };
}

export async function login(app: AppContext, input: Credentials): Promise<{ user: User; cookie: string }> {
  await limitAuth(app, "login", input.userName);
  const row = await app.db
    .select()
    .from(users)
    .where(sql`${users.userName} = ${input.userName} COLLATE NOCASE`)
    .get();
  // Unknown names pay for a hash too, so timing does not reveal which names exist.
  const ok = await verifyPassword(input.password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !ok) throw new HttpError(401, "Invalid username or password");
  const now = Date.now();
  const session = await startSession(app, row.id, now);
  await app.db.insert(sessions).values(session.row);
  return { user: toUser(row), cookie: session.cookie };
}

/** Revoke the request's session server-side and clear the cookie. */
export async function logout(app: AppContext, request: Request): Promise<string> {
  const viewer = await getViewer(app, request);
  if (viewer) {
    await app.db.update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, viewer.sessionId));
  }
  return clearedSessionCookie(app);
}

/** The signed-in user of this request, or null: verified token + live session row. */
export function getViewer(app: AppContext, request: Request): Promise<Viewer | null> {
  return memoize(app, "viewer", async () => {
    const token = readCookie(request, cookieName(app));
    if (!token) return null;
    const claims = await verifySessionToken(app.env, token);
    if (!claims) return null;
    const now = Date.now();
    const row = await app.db
      .select({
        id: users.id,
        userName: users.userName,
        email: users.email,
        bio: users.bio,
        createdAt: users.createdAt,
        followersCount: users.followersCount,
        followingCount: users.followingCount,
        lastSeenAt: sessions.lastSeenAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.id, claims.sessionId),
          eq(sessions.userId, claims.userId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
          gt(sessions.lastSeenAt, now - IDLE_LIFETIME_MS),
        ),
      )
      .get();
    if (!row) return null;
    if (now - row.lastSeenAt > TOUCH_AFTER_MS) {
      app.ctx.waitUntil(
        app.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, claims.sessionId)).then(() => undefined),
      );
    }
    return { ...toUser(row), sessionId: claims.sessionId };
  });
}

/** For /api routes: the viewer or a 401. */
export async function requireApiViewer(app: AppContext, request: Request): Promise<Viewer> {
  const viewer = await getViewer(app, request);
  if (!viewer) throw unauthorized();
  return viewer;
}

/** For pages: the viewer or a redirect to /login. */
export async function requirePageViewer(app: AppContext, request: Request): Promise<Viewer> {
  const viewer = await getViewer(app, request);
  if (!viewer) throw redirect("/login");
  return viewer;
}
