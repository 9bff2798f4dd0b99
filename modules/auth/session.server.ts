// Sessions: a jose-signed JWT (HS256) naming a row in `sessions`. The row makes logout a real
// revocation: a copied token stops working once its row is revoked, idle or expired.
import { SignJWT, jwtVerify } from "jose";
import type { AppContext } from "../shared/index.server";

export const ABSOLUTE_LIFETIME_MS = 30 * 24 * 3600 * 1000; // 30 days after login
export const IDLE_LIFETIME_MS = 7 * 24 * 3600 * 1000; // 7 days without a request
export const TOUCH_AFTER_MS = 3600 * 1000; // refresh last_seen_at at most hourly

const ISSUER = "echo";

export function cookieName(app: Pick<AppContext, "secure">): string {
  return app.secure ? "__Host-echo_session" : "echo_session";
}

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

export async function verifySessionToken(env: Env, token: string): Promise<{ userId: string; sessionId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, secretKey(env), { issuer: ISSUER, algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
    return { userId: payload.sub, sessionId: payload.sid };
  } catch {
    return null;
  }
}

export function sessionCookie(app: Pick<AppContext, "secure">, token: string): string {
  const secure = app.secure ? "; Secure" : "";
  return `${cookieName(app)}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${ABSOLUTE_LIFETIME_MS / 1000}${secure}`;
}

export function clearedSessionCookie(app: Pick<AppContext, "secure">): string {
  const secure = app.secure ? "; Secure" : "";
  return `${cookieName(app)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}
