// Sessions: a jose-signed JWT (HS256) naming a row in `sessions`. The row makes logout a real
// revocation: a copied token stops working once its row is revoked, idle or expired.
import { SignJWT, jwtVerify } from "jose";
import { createCookie, type Cookie } from "react-router";
import * as v from "valibot";
import { boundedCache, type AppContext } from "../shared/index.server";

export const ABSOLUTE_LIFETIME_MS = 30 * 24 * 3600 * 1000; // 30 days after login
export const IDLE_LIFETIME_MS = 7 * 24 * 3600 * 1000; // 7 days without a request
export const TOUCH_AFTER_MS = 3600 * 1000; // refresh last_seen_at at most hourly

const ISSUER = "echo";

const SESSION_COOKIE_OPTIONS = {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: ABSOLUTE_LIFETIME_MS / 1000,
} as const;

/**
 * The session cookie (decision 011's contract): `echo_session` locally, `__Host-echo_session` with
 * `Secure` on https. Its value is the JWT in React Router's cookie encoding (base64 of the JSON
 * string); the JWT carries its own signature, so the cookie adds none.
 */
const SESSION_COOKIES = {
  http: createCookie("echo_session", SESSION_COOKIE_OPTIONS),
  https: createCookie("__Host-echo_session", { ...SESSION_COOKIE_OPTIONS, secure: true }),
};

export function sessionCookieOf(app: Pick<AppContext, "secure">): Cookie {
  return app.secure ? SESSION_COOKIES.https : SESSION_COOKIES.http;
}

/** A cookie value that can be a token at all; anything else (`{}` from a bad encoding) is no cookie. */
export const SessionTokenSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(2048));

function secretKey(env: Env): Uint8Array {
  const secret = env.SESSION_SECRET;
  if (!secret || secret.length < 32) throw new Error("SESSION_SECRET is missing or shorter than 32 characters");
  return new TextEncoder().encode(secret);
}

export async function signSessionToken(env: Env, userId: string, sessionId: string, now: number): Promise<string> {
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + ABSOLUTE_LIFETIME_MS) / 1000))
    .sign(secretKey(env));
}

type Verified = { userId: string; sessionId: string; expiresAt: number };

async function verify(env: Env, token: string): Promise<Verified | null> {
  try {
    const { payload } = await jwtVerify(token, secretKey(env), { issuer: ISSUER, algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string" || typeof payload.exp !== "number") return null;
    return { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp * 1000 };
  } catch {
    return null;
  }
}

// A token's signature check gives the same answer every time (for one secret): a browser's token
// is checked once per isolate, not on every request. Its expiry is still checked on every use, and
// the session row (revoked, idle, expired) on every request that asks for the viewer.
const verified = boundedCache<string, Promise<Verified | null>>(1024);

export async function verifySessionToken(env: Env, token: string): Promise<Verified | null> {
  const claims = await verified(`${env.SESSION_SECRET}\n${token}`, () => verify(env, token));
  if (!claims || claims.expiresAt <= Date.now()) return null;
  return claims;
}

/** The Set-Cookie that stores `token`. */
export function sessionCookie(app: Pick<AppContext, "secure">, token: string): Promise<string> {
  return sessionCookieOf(app).serialize(token);
}

/** The Set-Cookie that clears the session cookie (empty value, Max-Age=0). */
export function clearedSessionCookie(app: Pick<AppContext, "secure">): Promise<string> {
  return sessionCookieOf(app).serialize("", { maxAge: 0 });
}
