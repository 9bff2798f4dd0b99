// The pure rules of read replication (decision 017): which bookmarks are taken, where a request's
// session starts, and the bookmark cookie's round trip; then a real local D1 session.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bookmarkCookie, readBookmark } from "./bookmark-cookie.server";
import { isBookmark, sessionStart } from "./replicas.server";

const REAL = "00000000-0000001f-00000000-0000000000000000000000000000abcd";
const encoded = (value: unknown) => btoa(JSON.stringify(value));
const withCookie = (cookie: string) => new Request("http://echo.test/", { headers: { Cookie: cookie } });

describe("isBookmark", () => {
  it("takes D1's bookmark shape only", () => {
    expect(isBookmark(REAL)).toBe(true);
    for (const bad of [
      "",
      "garbage",
      "first-primary",
      "first-unconstrained",
      REAL.toUpperCase(),
      `${REAL}0`,
      REAL.slice(1),
      "x".repeat(10_000),
      "\ud800",
      `${REAL.slice(0, -1)}\ud800`,
      42,
      null,
      {},
    ]) {
      expect(isBookmark(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("sessionStart", () => {
  const start = (method: string, pathname: string, bookmark: unknown, signedIn = false) => sessionStart({ method, pathname, bookmark, signedIn });

  it("sends every write to the primary, with or without a bookmark", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(start(method, "/api/echo/post", REAL, true)).toBe("first-primary");
      expect(start(method, "/echo/5.data", null)).toBe("first-primary");
    }
  });

  it("sends the account paths to the primary even on GET (their data requests too)", () => {
    for (const path of ["/login", "/signup", "/logout", "/settings", "/settings.data", "/login.data", "/api/auth/me"]) {
      expect(start("GET", path, REAL, true), path).toBe("first-primary");
    }
    // a prefix is a path segment, not any text
    expect(start("GET", "/settingsx", REAL)).toBe(REAL);
    expect(start("GET", "/api/authors", REAL)).toBe(REAL);
  });

  it("starts a read from the visitor's bookmark", () => {
    expect(start("GET", "/", REAL, true)).toBe(REAL);
    expect(start("HEAD", "/api/echo/all", REAL)).toBe(REAL);
    expect(start("GET", "/scroll/1.data", REAL)).toBe(REAL);
  });

  it("without a usable bookmark: anywhere for a guest, the primary for a signed-in browser", () => {
    for (const bookmark of [null, "garbage", "first-primary", "\ud800"]) {
      expect(start("GET", "/", bookmark, false)).toBe("first-unconstrained");
      expect(start("GET", "/", bookmark, true)).toBe("first-primary");
    }
  });
});

describe("the bookmark cookie", () => {
  it("round-trips through React Router's cookie API: HttpOnly, SameSite=Lax, Path=/; __Host- and Secure on https", async () => {
    const plain = await bookmarkCookie(REAL, false);
    expect(plain).toMatch(/^echo_d1b=[^;]+;/);
    for (const flag of ["Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=86400"]) expect(plain).toContain(flag);
    expect(plain).not.toContain("Secure");
    expect(await readBookmark(withCookie(plain.split(";")[0]!), false)).toBe(REAL);

    const https = await bookmarkCookie(REAL, true);
    expect(https).toMatch(/^__Host-echo_d1b=[^;]+;.*Secure/);
    expect(await readBookmark(withCookie(https.split(";")[0]!), true)).toBe(REAL);
    // the plain name is not read on https (anyone on a sibling host could have set it)
    expect(await readBookmark(withCookie(plain.split(";")[0]!), true)).toBeNull();
  });

  it("reads anything else as no bookmark, never throwing", async () => {
    const invalidUtf8 = btoa(String.fromCharCode(0x22, 0xff, 0xfe, 0x22));
    for (const cookie of [
      "",
      "echo_d1b=",
      "echo_d1b=%",
      "echo_d1b=%E0%A4%A",
      "echo_d1b=garbage",
      `echo_d1b=${"A".repeat(8000)}`,
      `echo_d1b=${encoded("garbage")}`,
      `echo_d1b=${encoded("first-primary")}`,
      `echo_d1b=${encoded({ bookmark: REAL })}`,
      `echo_d1b=${btoa('"\\ud800"')}`,
      `echo_d1b=${invalidUtf8}`,
      `echo_d1b=${encoded(REAL)}x`,
      `other=${encoded(REAL)}`,
    ]) {
      expect(await readBookmark(withCookie(cookie), false), cookie.slice(0, 60)).toBeNull();
    }
  });
});

describe("a D1 session on the local runtime", () => {
  it("a session started from a write's bookmark reads that write; the bookmark moves forward", async () => {
    const writer = env.DB.withSession("first-primary");
    expect(writer.getBookmark()).toBeNull();
    const name = `replica${Date.now().toString(36)}`;
    await writer.batch([writer.prepare("INSERT INTO tags (name, echo_count, recent_count, created_at) VALUES (?1, 0, 0, ?2)").bind(name, Date.now())]);
    const afterWrite = writer.getBookmark();
    expect(isBookmark(afterWrite)).toBe(true);

    const reader = env.DB.withSession(afterWrite!);
    const [rows] = await reader.batch<{ name: string }>([reader.prepare("SELECT name FROM tags WHERE name = ?1").bind(name)]);
    expect(rows!.results).toEqual([{ name }]);
    expect(isBookmark(reader.getBookmark())).toBe(true);
    expect(reader.getBookmark()! >= afterWrite!).toBe(true);
  });

  it("keeps a malformed bookmark it was given (why sessionStart refuses them)", async () => {
    const session = env.DB.withSession("garbage");
    await session.prepare("SELECT 1").all();
    // "garbage" sorts after every real bookmark: it would stick in the cookie for good
    expect(session.getBookmark()).toBe("garbage");
  });
});
