import { describe, expect, it } from "vitest";
import { checkOrigin, securityHeaders } from "./security";
import { clearedSessionCookie, sessionCookie } from "../modules/auth/index.server";

describe("production (https) hardening", () => {
  it("session cookies are __Host-, Secure, HttpOnly, SameSite=Lax on https", () => {
    const cookie = sessionCookie({ secure: true }, "tok");
    expect(cookie).toMatch(/^__Host-echo_session=tok;/);
    for (const flag of ["Path=/", "HttpOnly", "SameSite=Lax", "Secure"]) expect(cookie).toContain(flag);
    expect(clearedSessionCookie({ secure: true })).toMatch(/^__Host-echo_session=;.*Max-Age=0.*Secure/);
    expect(sessionCookie({ secure: false }, "tok")).not.toContain("Secure");
  });

  it("sends HSTS only on https, with the CSP and the rest everywhere", () => {
    const https = securityHeaders(new Response("x"), "n0nce", true);
    expect(https.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    const http = securityHeaders(new Response("x"), "n0nce", false);
    expect(http.headers.get("strict-transport-security")).toBeNull();
    const csp = http.headers.get("content-security-policy")!;
    for (const part of ["script-src 'self' 'nonce-n0nce'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      expect(csp).toContain(part);
    }
    expect(http.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("refuses cross-site writes by Origin or Sec-Fetch-Site, allows same-origin and safe methods", () => {
    const url = "https://echo.example/api/echo/post";
    const req = (method: string, headers: Record<string, string>) => new Request(url, { method, headers });
    expect(checkOrigin(req("POST", { Origin: "https://evil.example" }))?.status).toBe(403);
    expect(checkOrigin(req("DELETE", { "Sec-Fetch-Site": "cross-site" }))?.status).toBe(403);
    expect(checkOrigin(req("POST", { Origin: "https://echo.example" }))).toBeNull();
    expect(checkOrigin(req("GET", { Origin: "https://evil.example" }))).toBeNull();
  });
});
