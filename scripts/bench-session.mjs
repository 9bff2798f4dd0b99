// What the store benches share (bench-feeds.mjs, bench-hider-lists.mjs): sessions written into the
// store for the users they read as, and a request that reads its D1 cost from Server-Timing.
//
// Sessions: thousands of creators would cost thousands of scrypt logins (~10 min of CPU), so the
// rows go straight into the store and their tokens are signed with the server's SESSION_SECRET
// (.dev.vars), as login does; the rows are ordinary sessions and expire normally.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { SignJWT } from "jose";
import { root, run } from "./lib.mjs";

/** The dev server's SESSION_SECRET (written by ensure-dev-vars when missing). */
export async function sessionSecret() {
  await run("node", ["scripts/ensure-dev-vars.mjs"]);
  const secret = /^SESSION_SECRET=(.*)$/m.exec(readFileSync(path.join(root, ".dev.vars"), "utf8"))?.[1]?.trim();
  if (!secret) throw new Error("no SESSION_SECRET in .dev.vars");
  return secret;
}

/** A session row for each user (in the store's SQLite file `db`) and its cookie, by user id. */
export async function writeSessions(db, userIds, secret) {
  const now = Date.now();
  const key = new TextEncoder().encode(secret);
  const cookies = new Map();
  const insert = db.prepare("INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, NULL)");
  db.exec("BEGIN");
  for (const userId of userIds) {
    const sid = randomBytes(13).toString("hex");
    insert.run(sid, userId, now, now, now + 30 * 86_400_000);
    const token = await new SignJWT({ sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(userId)
      .setIssuer("echo")
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor((now + 30 * 86_400_000) / 1000))
      .sign(key);
    // the session cookie's value is the token in React Router's cookie encoding (decision 011)
    cookies.set(userId, `echo_session=${encodeURIComponent(btoa(JSON.stringify(token)))}`);
  }
  db.exec("COMMIT");
  return cookies;
}

/**
 * `probe(cookie, path, jar?)` against `base`: status, round trips and rows read (Server-Timing,
 * EXPOSE_D1_STATS=1), latency and the JSON body. A `jar` keeps the page bookmarks the API sets
 * (echo_pages), as a client that pages by number does.
 */
export function prober(base) {
  return async function probe(cookie, p, jar = null) {
    const t = Date.now();
    const res = await fetch(base + p, { headers: { Cookie: [cookie, ...(jar ? [...jar.values()] : [])].join("; ") }, redirect: "manual", signal: AbortSignal.timeout(300_000) });
    if (jar) for (const c of res.headers.getSetCookie()) if (/^echo_pages=/.test(c)) jar.set("echo_pages", c.split(";")[0]);
    const m = /rt=(\d+) rows=(\d+)/.exec(res.headers.get("server-timing") ?? "");
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      // HTML
    }
    return { status: res.status, rt: m ? Number(m[1]) : null, rows: m ? Number(m[2]) : null, ms: Date.now() - t, json };
  };
}
