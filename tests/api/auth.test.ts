import { describe, expect, it } from "vitest";
import { BASE_URL, Client, cookieValue, expectErrorShape, signedUp, uniqueName } from "./client";

describe("POST /api/auth/signup", () => {
  it("creates the user, returns it with a session cookie", async () => {
    const client = new Client();
    const userName = uniqueName("new");
    const res = await client.post("/api/auth/signup", { userName: `  ${userName}  `, password: "pass1234" });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ userName, bio: "", email: null });
    expect(res.json._id).toMatch(/^[0-9a-z]{26}$/);
    expect(res.json.passwordHash).toBeUndefined();
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^echo_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect((await client.get("/api/auth/me")).json.userName).toBe(userName);
  });

  it.each([
    [{ password: "pass1234" }, "Username is required"],
    [{ userName: "   ", password: "pass1234" }, "Username is required"],
    [{ userName: "okname" }, "Password is required"],
    [{ userName: "okname", password: "" }, "Password is required"],
    [{ userName: "okname", password: "abc" }, "Password must be at least 4 characters"],
    [{ userName: 12, password: "pass1234" }, "Username must be a string"],
    [{ userName: "a".repeat(31), password: "pass1234" }, "Username must be at most 30 characters"],
    [{ userName: "<script>", password: "pass1234" }, 'Username may only contain letters, numbers, "_", "." and "-"'],
    [[], "Request body must be a JSON object"],
  ])("rejects %j with 400 '%s'", async (body, message) => {
    const res = await new Client().post("/api/auth/signup", body);
    expect(res.status).toBe(400);
    expectErrorShape(res.json);
    expect(res.json.error).toBe(message);
  });

  it("rejects malformed JSON with 400", async () => {
    const res = await new Client().post("/api/auth/signup", "{not json");
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("Request body must be valid JSON");
  });

  it("answers 409 for a taken name, in any letter case, and writes nothing", async () => {
    const { user } = await signedUp("dup");
    const res = await new Client().post("/api/auth/signup", { userName: user.userName.toUpperCase(), password: "other123" });
    expect(res.status).toBe(409);
    expect(res.json.error).toBe("Username is already taken");
    // the original password still works: the failed sign-up changed nothing
    expect((await new Client().post("/api/auth/login", { userName: user.userName, password: "pass1234" })).status).toBe(200);
  });

  it("lets exactly one of many parallel sign-ups with one name win", async () => {
    const userName = uniqueName("race");
    const results = await Promise.all(
      Array.from({ length: 8 }, () => new Client().post("/api/auth/signup", { userName, password: "pass1234" })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
  });
});

describe("POST /api/auth/login and /logout, GET /api/auth/me", () => {
  it("logs in with the right password only; the message is the server's", async () => {
    const { user } = await signedUp("log");
    const wrong = await new Client().post("/api/auth/login", { userName: user.userName, password: "wrong-pass" });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: "Invalid username or password", message: "Invalid username or password" });
    const client = new Client();
    const ok = await client.post("/api/auth/login", { userName: user.userName, password: "pass1234" });
    expect(ok.status).toBe(200);
    expect(ok.json._id).toBe(user._id);
    expect((await client.get("/api/auth/me")).json._id).toBe(user._id);
  });

  it("answers 401 to a guest", async () => {
    const res = await new Client().get("/api/auth/me");
    expect(res.status).toBe(401);
    expectErrorShape(res.json);
  });

  it("revokes server-side: a copied token stops working after logout", async () => {
    const { client } = await signedUp("rev");
    const copy = new Client();
    copy.cookie = client.cookie;
    expect((await copy.get("/api/auth/me")).status).toBe(200);
    const out = await client.post("/api/auth/logout");
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    expect((await copy.get("/api/auth/me")).status).toBe(401);
    // reads that check the session inside their own data batch refuse it too, and leak nothing
    const list = await copy.get("/api/echo/all");
    expect(list.status).toBe(401);
    expect(list.json.echos).toBeUndefined();
    expect((await copy.get("/api/scroll/all")).status).toBe(401);
    // a read served from the KV cache alone still checks the session
    expect((await copy.get("/api/community/tags")).status).toBe(401);
    for (const page of ["/", "/profile", "/scrolls", "/community"]) {
      const res = await copy.get(page);
      expect(res.status).toBe(302);
      // back to the page after signing in again (issue 29); home is where login goes anyway
      expect(res.headers.get("location")).toBe(page === "/" ? "/login" : `/login?next=${encodeURIComponent(page)}`);
    }
    expect((await copy.post("/api/echo/post", { content: "after logout" })).status).toBe(401);
  });

  it("answers 401 to a tampered or forged token", async () => {
    const { client } = await signedUp("tam");
    const [name, value] = client.cookie.split("; ").find((c) => c.startsWith("echo_session="))!.split("=") as [string, string];
    const token: string = JSON.parse(Buffer.from(decodeURIComponent(value), "base64").toString());
    const [h, p, s] = token.split(".") as [string, string, string];
    // the untouched token, re-encoded, still signs in: the forgeries below fail on their token alone
    const same = new Client();
    same.cookie = `${name}=${cookieValue(`${h}.${p}.${s}`)}`;
    expect((await same.get("/api/auth/me")).status).toBe(200);
    const claims = JSON.parse(Buffer.from(p, "base64url").toString());
    claims.sub = "01aaaaaaaaaaaaaaaaaaaaaaaa";
    const forged = new Client();
    forged.cookie = `${name}=${cookieValue(`${h}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${s}`)}`;
    expect((await forged.get("/api/auth/me")).status).toBe(401);
    const flipped = new Client();
    flipped.cookie = `${name}=${cookieValue(`${h}.${p}.${s.slice(0, -2)}${s.endsWith("AA") ? "BB" : "AA"}`)}`;
    expect((await flipped.get("/api/auth/me")).status).toBe(401);
    const none = new Client();
    none.cookie = `${name}=${cookieValue(`${Buffer.from('{"alg":"none"}').toString("base64url")}.${p}.`)}`;
    expect((await none.get("/api/auth/me")).status).toBe(401);
  });

  it("rate-limits login per user name: 429 with Retry-After", async () => {
    const { user } = await signedUp("rl");
    // fixed one-minute windows: 22 attempts put at least 11 in one window, wherever the
    // boundary falls, so the 11th attempt of that window must be refused
    const statuses: number[] = [];
    let limited;
    for (let i = 0; i < 22 && !limited; i++) {
      const res = await new Client().post("/api/auth/login", { userName: user.userName, password: "wrong-pass" });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(limited, statuses.join(",")).toBeDefined();
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.length).toBeGreaterThanOrEqual(11);
    expectErrorShape(limited!.json);
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("a client cannot choose its address (issue 28)", () => {
  // Locally (wrangler's runtime) a client's CF-Connecting-IP passed through to the rate limits,
  // so each forged address was a new client. The router now replaces it there (worker/security.ts
  // clientIpHeaders); on Cloudflare's edge, the edge sets it. That the owner on another address is
  // not locked out by someone else's failures is held by modules/auth/auth.server.test.ts ("login
  // limits never lock the owner out"), where the address is the test's to give.
  it("failures sent with different forged CF-Connecting-IP values share one client's bucket", async () => {
    const { user } = await signedUp("fip");
    // a new forged address on every try: trusted, each would be a first failure (never 429 under
    // the per-name ceiling of 100); not trusted, they are one client and the 11th in a window is
    // refused (fixed one-minute windows: 21 tries put 11 in one wherever its edge falls)
    const statuses: number[] = [];
    while (statuses.length < 21 && !statuses.includes(429)) {
      const forged = { "CF-Connecting-IP": `198.51.100.${statuses.length + 1}` };
      statuses.push((await new Client().post("/api/auth/login", { userName: user.userName, password: "wrong-pass" }, forged)).status);
    }
    expect(statuses.at(-1), statuses.join(",")).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.length).toBeGreaterThanOrEqual(11);
  });
});

describe("security baseline", () => {
  it("refuses a cross-site write with 403 and changes nothing", async () => {
    const userName = uniqueName("csrf");
    const res = await new Client().post("/api/auth/signup", { userName, password: "pass1234" }, { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expectErrorShape(res.json);
    const login = await new Client().post("/api/auth/login", { userName, password: "pass1234" });
    expect(login.status).toBe(401);
  });

  it("accepts a same-origin write", async () => {
    const res = await new Client().post(
      "/api/auth/signup",
      { userName: uniqueName("same"), password: "pass1234" },
      { Origin: new URL(BASE_URL).origin },
    );
    expect(res.status).toBe(201);
  });

  it("answers 413 to a body over 64 KB", async () => {
    const res = await new Client().post("/api/auth/signup", { userName: "big", password: "x".repeat(70_000) });
    expect(res.status).toBe(413);
    expectErrorShape(res.json);
  });

  it("answers every oversized or unexpected body without dropping the connection", async () => {
    // Each answer used to be sent before the upload was read (a declared length over 64 KB got
    // its 413 at once; a cross-site write its 403): wrangler's runtime then dropped about one
    // such connection in twelve ("fetch failed" / "Network connection lost"). No retries here.
    const big = JSON.stringify({ content: "x".repeat(80_000) });
    const cases = Array.from({ length: 96 }, (_, i) => {
      const method = ["POST", "DELETE", "PATCH", "PUT", "OPTIONS"][i % 5]!;
      const path = ["/api/echo/post", "/api/scroll/create", "/api/nowhere", "/api/health", "/api/auth/login"][i % 5]!;
      const headers: Record<string, string> = i % 3 === 0 ? { Origin: "https://evil.example" } : {};
      return { method, path, headers };
    });
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < cases.length) {
          const { method, path, headers } = cases[next++]!;
          const res = await new Client().request(method, path, big, headers);
          expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(headers.Origin && method !== "OPTIONS" ? 403 : 413);
          expectErrorShape(res.json);
          statuses.push(res.status);
        }
      }),
    );
    expect(statuses).toHaveLength(cases.length);
  });

  it("answers a GET or HEAD that carries a body (fetch never sends one; raw HTTP can)", async () => {
    const { request } = await import("node:http");
    for (const method of ["GET", "HEAD"]) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${BASE_URL}/api/health`, { method, headers: { "Content-Type": "text/plain", "Content-Length": "5" } }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        });
        req.on("error", reject);
        req.end("hello");
      });
      expect(status, method).toBe(200);
    }
  });

  it("sends the security headers on pages and API", async () => {
    for (const path of ["/login", "/api/auth/me"]) {
      const res = await fetch(BASE_URL + path);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).not.toContain("unsafe-inline'; script");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    }
  });

  it("puts the CSP nonce on every inline script of a page", async () => {
    const res = await fetch(BASE_URL + "/login");
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy")!)![1];
    const html = await res.text();
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("redirects guests to /login and answers unknown API paths with 404 JSON", async () => {
    const page = await new Client().get("/profile");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/login?next=%2Fprofile");
    const api = await new Client().get("/api/nope");
    expect(api.status).toBe(404);
    expectErrorShape(api.json);
  });

  it("sends a guest to /login with the page asked for, query kept (a shared link survives sign-in)", async () => {
    const echo = await new Client().get("/echo/01aaaaaaaaaaaaaaaaaaaaaaaa");
    expect(echo.status).toBe(302);
    expect(echo.headers.get("location")).toBe("/login?next=%2Fecho%2F01aaaaaaaaaaaaaaaaaaaaaaaa");
    const tag = await new Client().get("/tag/intro?orderBy=likes");
    expect(tag.headers.get("location")).toBe(`/login?next=${encodeURIComponent("/tag/intro?orderBy=likes")}`);
  });

  it("sends a signed-in user from /login?next= to that page, and only to a path on this site", async () => {
    const { client } = await signedUp("gn");
    const back = await client.get(`/login?next=${encodeURIComponent("/echo/01aaaaaaaaaaaaaaaaaaaaaaaa")}`);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/echo/01aaaaaaaaaaaaaaaaaaaaaaaa");
    for (const next of ["//evil.com", "https://evil.com", "/\\evil.com", "/\t/evil.com", "/login"]) {
      for (const path of ["/login", "/signup"]) {
        const res = await client.get(`${path}?next=${encodeURIComponent(next)}`);
        expect(res.status, `${path} ${next}`).toBe(302);
        expect(res.headers.get("location"), `${path} ${next}`).toBe("/");
      }
    }
  });

  it("sends a signed-in user from /login and /signup to /", async () => {
    const { client } = await signedUp("gl");
    for (const path of ["/login", "/signup"]) {
      const res = await client.get(path);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/");
    }
  });
});

describe("no state change on GET", () => {
  it("write endpoints answer GET with 405 and change nothing; GET /logout keeps the session", async () => {
    const { client } = await signedUp("get");
    for (const path of ["/api/auth/signup", "/api/auth/login", "/api/auth/logout", "/api/echo/post", "/api/scroll/create"]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(405);
    }
    const out = await client.get("/logout");
    expect(out.status).toBe(302);
    expect((await client.get("/api/auth/me")).status).toBe(200);
  });
});
