import { describe, expect, it } from "vitest";
import { ERROR_SHAPE_HEADER, errorResponse } from "../modules/shared/index";
import { apiErrorShape, checkOrigin, DRAIN_CAP_BYTES, isJsonContentType, limitBody, MAX_BODY_BYTES, refuseUnknownMethod, requireJsonBody, securityHeaders } from "./security";
import { clearedSessionCookie, sessionCookie } from "../modules/auth/index.server";

describe("production (https) hardening", () => {
  it("session cookies are __Host-, Secure, HttpOnly, SameSite=Lax on https", async () => {
    const cookie = await sessionCookie({ secure: true }, "tok");
    // the token in React Router's cookie encoding: base64 of the JSON string, percent-encoded
    expect(cookie).toMatch(/^__Host-echo_session=InRvayI%3D;/);
    for (const flag of ["Path=/", "HttpOnly", "SameSite=Lax", "Secure"]) expect(cookie).toContain(flag);
    expect(await clearedSessionCookie({ secure: true })).toMatch(/^__Host-echo_session=;.*Max-Age=0.*Secure/);
    expect(await sessionCookie({ secure: false }, "tok")).not.toContain("Secure");
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
    // a WebSocket handshake is a GET, but a cross-site one would hand the victim's socket over
    expect(checkOrigin(req("GET", { Origin: "https://evil.example", Upgrade: "websocket" }))?.status).toBe(403);
    expect(checkOrigin(req("GET", { Origin: "https://echo.example", Upgrade: "websocket" }))).toBeNull();
    expect(checkOrigin(req("GET", { Upgrade: "websocket" }))).toBeNull();
  });

  it("compares the scheme: https://host is not http://host, for writes and WebSocket upgrades (issue 28)", () => {
    const req = (method: string, headers: Record<string, string>) => new Request("http://echo.example/api/live?all=1", { method, headers });
    for (const other of ["https://echo.example", "http://echo.example:8080", "null", ""]) {
      expect(checkOrigin(req("GET", { Origin: other, Upgrade: "websocket" }))?.status, other).toBe(403);
      expect(checkOrigin(req("POST", { Origin: other }))?.status, other).toBe(403);
    }
    expect(checkOrigin(req("GET", { Origin: "http://echo.example", Upgrade: "websocket" }))).toBeNull();
    // wrangler's local proxy rewrites Origin: https://host to its own http origin, so the Origin
    // the Worker sees matches; the browser's Sec-Fetch-Site (which it leaves alone) still refuses
    for (const site of ["cross-site", "same-site"]) {
      expect(checkOrigin(req("GET", { Origin: "http://echo.example", "Sec-Fetch-Site": site, Upgrade: "websocket" }))?.status, site).toBe(403);
      expect(checkOrigin(req("POST", { Origin: "http://echo.example", "Sec-Fetch-Site": site }))?.status, site).toBe(403);
    }
    expect(checkOrigin(req("POST", { Origin: "http://echo.example", "Sec-Fetch-Site": "same-origin" }))).toBeNull();
  });
});

describe("JSON bodies only on /api (issue 28)", () => {
  it("application/json in any case, with parameters; a charset must be UTF-8", () => {
    for (const ok of ["application/json", "APPLICATION/JSON", "application/json; charset=utf-8", "application/json;charset=UTF8", 'application/json; charset="utf-8"', "application/json; v=1"]) {
      expect(isJsonContentType(ok), ok).toBe(true);
    }
    for (const bad of [null, "", "text/plain", "text/json", "application/jsonp", "application/json-patch+json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/json; charset=latin1", "application/json; charset=utf-16"]) {
      expect(isJsonContentType(bad), String(bad)).toBe(false);
    }
  });

  it("a body without it is 415 on the methods that carry one; no body, GET and OPTIONS pass", () => {
    const bodied = (method: string, type?: string) => new Request("http://echo.test/api/echo/post", { method, body: "{}", headers: type ? { "Content-Type": type } : {} });
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = requireJsonBody(bodied(method, "text/plain"));
      expect(res?.status, method).toBe(415);
      expect(requireJsonBody(bodied(method, "application/json"))).toBeNull();
      expect(requireJsonBody(new Request("http://echo.test/api/echo/like/1", { method }))).toBeNull();
    }
    expect(requireJsonBody(bodied("OPTIONS", "text/plain"))).toBeNull();
  });

  it("limitBody makes an empty body no body (what lets a bodiless call through)", async () => {
    const out = (await limitBody(new Request("http://echo.test/api/echo/like/1", { method: "POST", body: "", headers: { "Content-Type": "text/plain" } }))) as Request;
    expect(out.body).toBeNull();
    expect(requireJsonBody(out)).toBeNull();
  });
});

describe("request bodies are read to their end before any answer", () => {
  /** A body stream of `total` bytes in 8 KB chunks that records how much of it was pulled. */
  function body(total: number) {
    const seen = { pulled: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const n = Math.min(8192, total - seen.pulled);
        if (n <= 0) return controller.close();
        seen.pulled += n;
        controller.enqueue(new Uint8Array(n).fill(120));
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return { stream, seen };
  }
  const request = (method: string, total: number, headers: Record<string, string> = {}) => {
    const { stream, seen } = body(total);
    return { seen, req: new Request("http://echo.test/api/echo/post", { method, body: stream, headers, duplex: "half" } as RequestInit) };
  };

  it("an oversized body that declares its length is drained, then refused with 413", async () => {
    const size = MAX_BODY_BYTES + 5000;
    const { req, seen } = request("DELETE", size, { "Content-Length": String(size) });
    const res = await limitBody(req);
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(413);
    expect(seen).toEqual({ pulled: size, cancelled: false });
  });

  it("an oversized streamed body is drained, then refused with 413", async () => {
    const size = 3 * MAX_BODY_BYTES;
    const { req, seen } = request("POST", size);
    expect(((await limitBody(req)) as Response).status).toBe(413);
    expect(seen).toEqual({ pulled: size, cancelled: false });
  });

  it("a 10 MB upload is drained to its end, not cancelled (a cancel made wrangler answer a 500 naming its source)", async () => {
    const size = 10 * 1024 * 1024;
    const { req, seen } = request("PUT", size, { "Content-Length": String(size) });
    expect(((await limitBody(req)) as Response).status).toBe(413);
    expect(seen).toEqual({ pulled: size, cancelled: false });
  });

  it("past the drain cap (Cloudflare's own body limit) an upload is cancelled", async () => {
    const { req, seen } = request("POST", DRAIN_CAP_BYTES + 10 * 8192, { "Content-Length": String(DRAIN_CAP_BYTES + 10 * 8192) });
    expect(((await limitBody(req)) as Response).status).toBe(413);
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(DRAIN_CAP_BYTES);
  });

  it("a body within the limit is buffered and passed on, on any method", async () => {
    for (const method of ["POST", "DELETE", "OPTIONS", "PATCH"]) {
      const { req, seen } = request(method, 1000);
      const out = (await limitBody(req)) as Request;
      expect(out).toBeInstanceOf(Request);
      expect(seen.pulled).toBe(1000);
      expect((await out.arrayBuffer()).byteLength).toBe(1000);
    }
  });

  it("a GET or HEAD that carries a body has it read and dropped (building it back threw: a 500)", async () => {
    // fetch() refuses GET bodies; a raw HTTP client does not: model it with a POST renamed
    for (const method of ["GET", "HEAD"]) {
      const { stream, seen } = body(1000);
      const req = new Request("http://echo.test/api/health", { method: "POST", body: stream, duplex: "half" } as RequestInit);
      Object.defineProperty(req, "method", { value: method });
      const out = (await limitBody(req)) as Request;
      expect(out).toBeInstanceOf(Request);
      expect(out.method).toBe(method);
      expect(out.body).toBeNull();
      expect(seen.pulled).toBe(1000);
    }
  });
});

describe("every error is the API's error shape (issue 12)", () => {
  it("methods no route serves get 405 JSON with Allow; known methods pass", () => {
    for (const method of ["TRACE", "PROPFIND", "MKCOL"]) {
      const res = refuseUnknownMethod(new Request("http://echo.test/api/health", { method }));
      expect(res?.status, method).toBe(405);
      expect(res?.headers.get("allow")).toContain("POST");
    }
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      expect(refuseUnknownMethod(new Request("http://echo.test/", { method }))).toBeNull();
    }
  });

  it("an /api error not made by errorResponse is reshaped, keeping its status; ours pass unread, unmarked; successes pass", async () => {
    const foreign = apiErrorShape(Response.json({ message: "Unexpected Server Error" }, { status: 405, statusText: "Method Not Allowed" }));
    expect(foreign.status).toBe(405);
    expect(await foreign.json()).toEqual({ error: "Method Not Allowed", message: "Method Not Allowed" });
    const text = apiErrorShape(new Response("Error: at /work/x.ts:1", { status: 500 }));
    expect(await text.json()).toEqual({ error: "Something went wrong", message: "Something went wrong" });
    // in the shape but not marked: not ours, so shaped again (the body is never read)
    const lookalike = apiErrorShape(Response.json({ error: "x", message: "x" }, { status: 409, statusText: "Conflict" }));
    expect(await lookalike.json()).toEqual({ error: "Conflict", message: "Conflict" });
    const ours = apiErrorShape(errorResponse(401, "Not signed in", { "WWW-Authenticate": "x" }));
    expect(ours.status).toBe(401);
    expect(ours.headers.has(ERROR_SHAPE_HEADER)).toBe(false);
    expect(ours.headers.get("WWW-Authenticate")).toBe("x");
    expect(await ours.json()).toEqual({ error: "Not signed in", message: "Not signed in" });
    const ok = Response.json({ ok: true });
    expect(apiErrorShape(ok)).toBe(ok);
  });
});
