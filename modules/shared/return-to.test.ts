import { describe, expect, it } from "vitest";
import { authPathFor, pagePathOf, safeReturnPath } from "./return-to";

describe("safeReturnPath: only a path on this site (no open redirect)", () => {
  it.each([
    ["/echo/01abc", "/echo/01abc"],
    ["/tag/intro?orderBy=likes#top", "/tag/intro?orderBy=likes#top"],
    ["/search?q=a%20b", "/search?q=a%20b"],
    ["/", "/"],
    ["/echo/../settings", "/settings"],
  ])("keeps %s", (raw, want) => expect(safeReturnPath(raw)).toBe(want));

  it.each([
    "//evil.com",
    "//evil.com/echo/1",
    "https://evil.com",
    "http://evil.com/",
    "/\\evil.com",
    "\\\\evil.com",
    "/\t/evil.com",
    "/\n/evil.com",
    "javascript:alert(1)",
    "evil.com",
    "",
    "/login",
    "/signup",
    "/logout",
    "/api/auth/me",
    "/" + "x".repeat(2001),
  ])("refuses %j", (raw) => expect(safeReturnPath(raw)).toBeNull());

  it("refuses nothing at all", () => {
    expect(safeReturnPath(null)).toBeNull();
    expect(safeReturnPath(undefined)).toBeNull();
  });
});

describe("authPathFor and pagePathOf", () => {
  it("carries a real destination, never home or a bad one", () => {
    expect(authPathFor("/login", "/echo/1?x=1")).toBe("/login?next=%2Fecho%2F1%3Fx%3D1");
    expect(authPathFor("/signup", "/echo/1")).toBe("/signup?next=%2Fecho%2F1");
    expect(authPathFor("/login", "/")).toBe("/login");
    expect(authPathFor("/login", "//evil.com")).toBe("/login");
    expect(authPathFor("/login", undefined)).toBe("/login");
  });

  it("names the page of a data request", () => {
    expect(pagePathOf(new Request("http://h/echo/1.data?_routes=a,b"))).toBe("/echo/1");
    expect(pagePathOf(new Request("http://h/_.data"))).toBe("/");
    expect(pagePathOf(new Request("http://h/tag/x?orderBy=likes"))).toBe("/tag/x?orderBy=likes");
  });
});
