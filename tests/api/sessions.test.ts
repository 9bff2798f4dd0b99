// Cookies a user did not mean to send: malformed values and stale sessions (issue 12). Each must
// behave like no cookie on what a guest may see, never a 500 and never a lock-out.
import { describe, expect, it } from "vitest";
import { Client, cookieValue, expectErrorShape, signedUp } from "./client";

const GUEST_PAGES = ["/login", "/signup"];
const SIGNED_IN_PAGES = ["/", "/settings", "/community", "/scrolls"];

function withCookie(cookie: string) {
  const client = new Client();
  client.cookie = cookie;
  return client;
}

/** The Set-Cookie that clears the session, if the response sent one. */
const clears = (res: { headers: Headers }) =>
  res.headers.getSetCookie().some((c) => /^echo_session=;/.test(c) && /Max-Age=0/.test(c));

async function staleCookie() {
  const { client, user } = await signedUp("stale");
  const cookie = client.cookie;
  expect((await client.post("/api/auth/logout")).status).toBe(200);
  return { cookie, user };
}

/** Cookie values that are no cookie: each fails a different step of decoding (decision 011). */
const BAD_VALUES = {
  "bad percent-encoding": "%E0%A4%A",
  "bad base64": "*not*base64*",
  "not JSON": encodeURIComponent(btoa("not json")),
  "ill-formed UTF-8": encodeURIComponent(Buffer.from([0x22, 0xff, 0xfe, 0x22]).toString("base64")),
  "an unpaired surrogate": cookieValue("\ud800"),
  "the wrong shape": cookieValue({ sid: 1 }),
  "a raw token, not the cookie encoding": "eyJhbGciOiJIUzI1NiJ9.e30.garbage",
  huge: cookieValue("x".repeat(3000)),
};

describe("malformed cookies are ignored", () => {
  const bad = [
    "echo_session=%",
    "echo_scroll=%",
    "echo_session=%E0%A4%A; echo_scroll=%zz",
    "echo_session=a.b.c",
    `echo_session=${cookieValue("eyJhbGciOiJIUzI1NiJ9.e30.garbage")}`,
    "echo_session=%; echo_session=a.b.c; echo_scroll=%; echo_scroll=%",
    ...Object.values(BAD_VALUES).map((value) => `echo_session=${value}; echo_scroll=${value}`),
  ].map((cookie) => ({ cookie, label: cookie.slice(0, 80) }));

  it.each(bad)("$label: guest pages show their form, signed-in pages send to /login, the API answers 401 JSON", async ({ cookie }) => {
    const client = withCookie(cookie);
    for (const page of GUEST_PAGES) {
      const res = await client.get(page);
      expect(res.status, page).toBe(200);
      expect(res.text).toContain('name="password"');
    }
    for (const page of SIGNED_IN_PAGES) {
      const res = await withCookie(cookie).get(page);
      expect(res.status, page).toBe(302);
      // back to the page after signing in again (issue 29); home is where login goes anyway
      expect(res.headers.get("location")).toBe(page === "/" ? "/login" : `/login?next=${encodeURIComponent(page)}`);
    }
    const me = await withCookie(cookie).get("/api/auth/me");
    expect(me.status).toBe(401);
    expect(me.json).toEqual({ error: "Not signed in", message: "Not signed in" });
    expect((await withCookie(cookie).get("/api/health")).status).toBe(200);
  });

  it.each(bad)("$label: logout (page and API) answers and clears, never 500", async ({ cookie }) => {
    const api = await withCookie(cookie).post("/api/auth/logout");
    expect(api.status).toBe(200);
    expect(api.json).toEqual({ ok: true });
    expect(clears(api)).toBe(true);
    const page = await withCookie(cookie).request("POST", "/logout", "", { "Content-Type": "application/x-www-form-urlencoded" });
    expect(page.status).toBeLessThan(400);
    if (cookie.startsWith("echo_session")) expect(clears(page)).toBe(true);
  });

  it("a signed-in user with a malformed scroll-selection cookie still gets every page", async () => {
    const { client } = await signedUp("badsel");
    for (const [what, value] of Object.entries({ ...BAD_VALUES, "bad percent-encoding": "%", "a scroll id of no scroll": cookieValue("x") })) {
      const planted = withCookie(`${client.cookie}; echo_scroll=${value}`);
      for (const page of SIGNED_IN_PAGES) expect((await planted.get(page)).status, `${what} ${page}`).toBe(200);
    }
    // a duplicated cookie: the first one counts (the browser sends the most specific first)
    const duplicated = withCookie(`${client.cookie}; echo_session=%; echo_scroll=%; echo_scroll=%`);
    expect((await duplicated.get("/api/auth/me")).status).toBe(200);
    expect((await withCookie(`echo_session=%; ${client.cookie}`).get("/api/auth/me")).status).toBe(401);
  });
});

describe("the scroll-selection cookie", () => {
  it("home renders the feed the cookie names, in the browser's encoding", async () => {
    const { client } = await signedUp("selcookie");
    const feeds = [];
    for (const name of ["Sel feed one", "Sel feed two"]) {
      const res = await client.post("/api/scroll/create", { name, type: "feed", feedConfig: { includedTags: ["selcookie"] } });
      expect(res.status).toBe(201);
      feeds.push(res.json.scroll as { _id: string; name: string });
    }
    // the page title links the selected feed: <h1 …><a href="/scroll/<id>"><bdi>name</bdi></a></h1>
    const heading = (html: string) => /<h1[^>]*>(.*?)<\/h1>/.exec(html)?.[1]?.replace(/<[^>]+>/g, "");
    for (const feed of feeds) {
      const home = await withCookie(`${client.cookie}; echo_scroll=${cookieValue(feed._id)}`).get("/");
      expect(home.status).toBe(200);
      expect(heading(home.text)).toBe(feed.name);
    }
  });
});

describe("a stale (revoked) session cookie is no cookie", () => {
  it("/login and /signup show their forms and clear the cookie", async () => {
    const { cookie } = await staleCookie();
    for (const page of GUEST_PAGES) {
      const res = await withCookie(cookie).get(page);
      expect(res.status, page).toBe(200);
      expect(res.text).toContain('name="password"');
      expect(clears(res), page).toBe(true);
    }
  });

  it("logging in with the stale cookie still in the browser works and keeps only the new cookie", async () => {
    const { cookie, user } = await staleCookie();
    const client = withCookie(cookie);
    const res = await client.post("/api/auth/login", { userName: user.userName, password: "pass1234" });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().filter((c) => c.startsWith("echo_session="))).toHaveLength(1);
    expect(clears(res)).toBe(false);
    expect((await client.get("/api/auth/me")).json._id).toBe(user._id);
    // the page form too
    const form = withCookie(cookie);
    const body = new URLSearchParams({ userName: user.userName, password: "pass1234" }).toString();
    const page = await form.request("POST", "/login", body, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(page.status).toBe(200);
    expect(clears(page)).toBe(false);
    expect((await form.get("/api/auth/me")).status).toBe(200);
  });

  it("logout (page and API) answers 200 and clears", async () => {
    const { cookie } = await staleCookie();
    const api = await withCookie(cookie).post("/api/auth/logout");
    expect(api.status).toBe(200);
    expect(clears(api)).toBe(true);
    const page = await withCookie(cookie).request("POST", "/logout", "", { "Content-Type": "application/x-www-form-urlencoded" });
    expect(page.status).toBe(200);
    expect(clears(page)).toBe(true);
  });

  it("signed-in-only routes still refuse it: API 401 (cleared), pages → /login (cleared)", async () => {
    const { cookie } = await staleCookie();
    for (const [method, path] of [
      ["GET", "/api/auth/me"],
      ["GET", "/api/echo/all"],
      ["GET", "/api/community/tags"],
      ["POST", "/api/echo/post"],
    ] as const) {
      const res = await withCookie(cookie).request(method, path, method === "POST" ? { content: "stale" } : undefined);
      expect(res.status, path).toBe(401);
      expectErrorShape(res.json);
      expect(clears(res), path).toBe(true);
    }
    const home = await withCookie(cookie).get("/");
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/login");
    expect(clears(home)).toBe(true);
  });

  it("a live session is never cleared", async () => {
    const { client } = await signedUp("live");
    for (const path of ["/", "/api/auth/me", "/api/health", "/settings"]) {
      const res = await client.get(path);
      expect(clears(res), path).toBe(false);
    }
  });
});
