import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { batch, configureRequestDb, select, sql, testAppContext } from "../shared/index.server";
import { login, logout, requireApiViewerId, signup } from "./auth.server";
import { confirmSession, getViewer, staleSessionCookie } from "./session-check.server";
import { hashPassword, verifyPassword } from "./password.server";
import { ABSOLUTE_LIFETIME_MS, IDLE_LIFETIME_MS, signSessionToken, verifySessionToken } from "./session.server";

const cookieOf = (setCookie: string) => setCookie.split(";")[0]!;
const requestWith = (cookie?: string) => new Request("http://localhost/", { headers: cookie ? { Cookie: cookie } : {} });

// Every signup and login pays for a scrypt hash: seconds each when the shared 2-core machine is busy.
const SCRYPT_TIMEOUT = { timeout: 60_000 };

describe("passwords", SCRYPT_TIMEOUT, () => {
  it("verify only the right password, with a fresh salt each time", async () => {
    const a = await hashPassword("correct horse");
    const b = await hashPassword("correct horse");
    expect(a).not.toBe(b);
    expect(a.startsWith("scrypt$16384$8$5$")).toBe(true);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("wrong horse", a)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });
});

describe("session tokens", () => {
  it("a token's check is kept per isolate, but its expiry still holds, and another secret's check is its own", async () => {
    // a token that expires a second from now
    const token = await signSessionToken(env, "user1", "session1", Date.now() - ABSOLUTE_LIFETIME_MS + 1000);
    // the claims, with when the token ends (a live socket ends with it, decision 016)
    const claims = { userId: "user1", sessionId: "session1", expiresAt: expect.any(Number) };
    expect(await verifySessionToken(env, token)).toEqual(claims);
    expect(await verifySessionToken(env, token)).toEqual(claims); // kept
    expect(await verifySessionToken({ ...env, SESSION_SECRET: "another secret that is long enough to use" }, token)).toBeNull();
    expect(await verifySessionToken(env, `${token.slice(0, -2)}xx`)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await verifySessionToken(env, token)).toBeNull(); // expired, though its check was kept
  });
});

describe("sessions against real D1", SCRYPT_TIMEOUT, () => {
  it("signup → viewer; logout revokes the token for good", async () => {
    const app = testAppContext(env);
    const { user, cookie } = await signup(app, { userName: "svc_alice", password: "pass1234" });
    expect(user.userName).toBe("svc_alice");
    const viewer = await getViewer(testAppContext(env), requestWith(cookieOf(cookie)));
    expect(viewer?._id).toBe(user._id);

    await logout(testAppContext(env), requestWith(cookieOf(cookie)));
    expect(await getViewer(testAppContext(env), requestWith(cookieOf(cookie)))).toBeNull();
  });

  it("login issues a new token each time; names are case-insensitive", async () => {
    await signup(testAppContext(env), { userName: "Svc_Bob", password: "pass1234" });
    const first = await login(testAppContext(env), { userName: "svc_bob", password: "pass1234" });
    const second = await login(testAppContext(env), { userName: "SVC_BOB", password: "pass1234" });
    expect(first.cookie).not.toBe(second.cookie);
    await expect(login(testAppContext(env), { userName: "svc_bob", password: "nope" })).rejects.toMatchObject({
      status: 401,
    });
  });

  it("rejects a duplicate name with 409", async () => {
    await signup(testAppContext(env), { userName: "svc_carol", password: "pass1234" });
    await expect(signup(testAppContext(env), { userName: "SVC_CAROL", password: "pass1234" })).rejects.toMatchObject({
      status: 409,
    });
  });

  it("rate-limits login per IP with 429 and Retry-After", async () => {
    const limited = { ...env, AUTH_IP_LIMIT_PER_MINUTE: "3" } as unknown as Env;
    // fixed one-minute windows: 8 attempts put at least 4 in one window wherever the boundary falls
    const attempts: { status: number; headers: Record<string, string> }[] = [];
    for (let i = 0; i < 8; i++) {
      const result = await login(testAppContext(limited, { ip: "198.51.100.9" }), { userName: `nobody${i}`, password: "pass1234" }).catch(
        (e: { status: number; headers: Record<string, string> }) => e,
      );
      attempts.push(result as { status: number; headers: Record<string, string> });
      if ((result as { status: number }).status === 429) break;
    }
    const last = attempts[attempts.length - 1]!;
    expect(attempts.slice(0, -1).every((e) => e.status === 401)).toBe(true);
    expect(attempts.length).toBeGreaterThanOrEqual(4);
    expect(last.status).toBe(429);
    expect(Number(last.headers["Retry-After"])).toBeGreaterThan(0);
  });
});

describe("session lifetimes", SCRYPT_TIMEOUT, () => {
  it(`ends a session idle for ${7} days, or ${30} days after login`, async () => {
    const { user, cookie } = await signup(testAppContext(env), { userName: "svc_life", password: "pass1234" });
    const req = requestWith(cookieOf(cookie));
    expect((await getViewer(testAppContext(env), req))?._id).toBe(user._id);
    const now = Date.now();
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id = ?").bind(now - IDLE_LIFETIME_MS - 1000, user._id).run();
    expect(await getViewer(testAppContext(env), req)).toBeNull();
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE user_id = ?").bind(now, now - 1, user._id).run();
    expect(await getViewer(testAppContext(env), req)).toBeNull();
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE user_id = ?").bind(now + ABSOLUTE_LIFETIME_MS, user._id).run();
    expect((await getViewer(testAppContext(env), req))?._id).toBe(user._id);
  });
});

describe("an expired session cookie is no cookie (issue 12)", SCRYPT_TIMEOUT, () => {
  /** A GET request's context, batching reads the way the Worker configures them. */
  function readContext() {
    const app = testAppContext(env);
    configureRequestDb(app.db, { coalesce: true });
    return app;
  }

  it("idle 7 days or past 30: a guest page reads on, logout clears; a viewer-only read is still 401", async () => {
    const { user, cookie } = await signup(testAppContext(env), { userName: "svc_expired", password: "pass1234" });
    const req = requestWith(cookieOf(cookie));
    const now = Date.now();
    for (const [lastSeen, expires] of [
      [now - IDLE_LIFETIME_MS - 1000, now + ABSOLUTE_LIFETIME_MS],
      [now, now - 1],
    ]) {
      await env.DB.prepare("UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE user_id = ?").bind(lastSeen, expires, user._id).run();

      // /login: the guest layout asks for the viewer; its other reads are not refused
      const guest = readContext();
      const [viewer, [rows]] = await Promise.all([getViewer(guest, req), batch(guest.db, [select({ one: sql<number>`1` }, sql``)])]);
      expect(viewer).toBeNull();
      expect(rows).toEqual([{ one: 1 }]);
      expect(await confirmSession(guest)).toBeNull();
      expect(await staleSessionCookie(guest, req)).toMatch(/^echo_session=;.*Max-Age=0/);

      expect(await logout(readContext(), req)).toMatch(/^echo_session=;.*Max-Age=0/);

      // an API read that needs the viewer still refuses it: its reads are answered (the data layer
      // knows nothing of sessions), and the request answers 401 instead of them
      const api = readContext();
      await requireApiViewerId(api, req);
      expect(await batch(api.db, [select({ one: sql<number>`1` }, sql``)])).toEqual([[{ one: 1 }]]);
      expect((await confirmSession(api))?.failure).toMatchObject({ status: 401 });
    }
  });

  it("a live session is not cleared", async () => {
    const { cookie } = await signup(testAppContext(env), { userName: "svc_live", password: "pass1234" });
    const app = readContext();
    const req = requestWith(cookieOf(cookie));
    expect(await getViewer(app, req)).not.toBeNull();
    expect(await staleSessionCookie(app, req)).toBeNull();
    expect(await staleSessionCookie(readContext(), requestWith("echo_session=%"))).toMatch(/Max-Age=0/);
  });
});

describe("login limits never lock the owner out (issue 12)", () => {
  const at = (ip: string) => testAppContext(env, { ip });
  const attempt = (ip: string, userName: string, password: string) =>
    login(at(ip), { userName, password }).then(
      () => 200,
      (e: { status: number }) => e.status,
    );
  /** Set failure counters in this minute's window and the next (the test may cross the edge). */
  async function failures(counts: Record<string, number>) {
    const now = Date.now();
    const window = now - (now % 60_000);
    for (const [key, count] of Object.entries(counts)) {
      for (const start of [window, window + 60_000]) {
        await env.DB.prepare("INSERT OR REPLACE INTO rate_limits (key, window_start, count) VALUES (?, ?, ?)").bind(key, start, count).run();
      }
    }
  }

  // each attempt pays for a scrypt hash (about 0.1–1 s on a busy 2-core machine)
  it("only failures count: a client is refused after 10 failures in a minute", { timeout: 120_000 }, async () => {
    await signup(testAppContext(env), { userName: "svc_target", password: "pass1234" });
    const statuses: number[] = [];
    // fixed one-minute windows: 21 tries put 11 in one window wherever its edge falls
    while (statuses.length < 21 && !statuses.includes(429)) statuses.push(await attempt("198.51.100.66", "svc_target", "guess"));
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.length).toBeGreaterThanOrEqual(11);
  });

  it("the owner with the right password logs in while someone else is refused for the name", { timeout: 60_000 }, async () => {
    await signup(testAppContext(env), { userName: "svc_owner", password: "pass1234" });
    await failures({ "login-fail:name:svc_owner": 10, "login-fail:client:svc_owner:198.51.100.67": 10 });
    expect(await attempt("198.51.100.67", "svc_owner", "pass1234")).toBe(429);
    expect(await attempt("203.0.113.20", "svc_owner", "pass1234")).toBe(200);
    expect(await attempt("203.0.113.20", "SVC_OWNER", "pass1234")).toBe(200);
  });

  it("under a distributed attack (the name's ceiling reached) only clients that failed are refused", { timeout: 60_000 }, async () => {
    await signup(testAppContext(env), { userName: "svc_besieged", password: "pass1234" });
    await failures({ "login-fail:name:svc_besieged": 100, "login-fail:client:svc_besieged:198.51.100.7": 1 });
    expect(await attempt("198.51.100.7", "svc_besieged", "pass1234")).toBe(429);
    expect(await attempt("203.0.113.21", "svc_besieged", "pass1234")).toBe(200);
    expect(await attempt("198.51.100.8", "svc_besieged", "wrong")).toBe(401);
    expect(await attempt("198.51.100.8", "svc_besieged", "pass1234")).toBe(429);
  });

  it("a correct password never counts as a failure", { timeout: 120_000 }, async () => {
    await signup(testAppContext(env), { userName: "svc_regular", password: "pass1234" });
    for (let i = 0; i < 12; i++) expect(await attempt("203.0.113.30", "svc_regular", "pass1234")).toBe(200);
  });
});

describe("the test server's cheap hashes (FAULT_INJECTION=1 only)", () => {
  it("production hashes at full cost; the test server's hashes name their cost and verify", async () => {
    const { hashCostOf } = await import("./password.server");
    expect(hashCostOf({ FAULT_INJECTION: "0" })).toEqual({ n: 16384, r: 8, p: 5 });
    expect(hashCostOf({})).toEqual({ n: 16384, r: 8, p: 5 });
    const cheap = await hashPassword("pass1234", hashCostOf({ FAULT_INJECTION: "1" }));
    expect(cheap.startsWith("scrypt$1024$8$1$")).toBe(true);
    expect(await verifyPassword("pass1234", cheap)).toBe(true);
    expect(await verifyPassword("pass12345", cheap)).toBe(false);
  });
});
