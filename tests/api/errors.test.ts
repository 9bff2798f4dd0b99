// The API's promise: every error is `{ error, message }` JSON, and no answer ever shows a server
// path (issue 12). Oversized bodies used to get wrangler's text 500 naming its own source file
// now and then; methods no route serves got `{"message":"Unexpected Server Error"}`.
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { BASE_URL, Client, expectErrorShape, signedUp, uniqueName } from "./client";

const PATH_LIKE = /\/work\/|node_modules|\.tsx?:\d|\.js:\d|file:\/\//;

/** Raw HTTP (fetch refuses TRACE and bodies on some methods), no retries. */
function raw(method: string, path: string, body?: Buffer): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = body ? { "Content-Type": "application/json", "Content-Length": String(body.length) } : {};
    const req = httpRequest(`${BASE_URL}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, type: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function expectApiError(res: { status: number; type: string; text: string }, status: number, label: string) {
  expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBe(status);
  expect(res.type, label).toMatch(/^application\/json/);
  expectErrorShape(JSON.parse(res.text));
  expect(res.text, label).not.toMatch(PATH_LIKE);
}

describe("methods no route serves", () => {
  it.each(["TRACE", "PROPFIND", "MKCOL", "LOCK"])("%s answers 405 JSON on /api and on pages", async (method) => {
    for (const path of ["/api/health", "/api/echo/post", "/api/nowhere", "/login", "/", "/settings"]) {
      expectApiError(await raw(method, path), 405, `${method} ${path}`);
    }
  });
});

describe("oversized bodies always get 413 JSON", () => {
  it("20 × 2 MB and 10 MB bodies across methods and routes", { timeout: 240_000 }, async () => {
    const sizes = [2_000_000, 10_000_000];
    const methods = ["POST", "PUT", "PATCH", "DELETE"];
    const paths = ["/api/echo/post", "/api/scroll/create", "/api/auth/login", "/api/nowhere", "/login"];
    const bodies = sizes.map((n) => Buffer.alloc(n, "x"));
    for (let i = 0; i < 20; i++) {
      const method = methods[i % methods.length]!;
      const path = paths[i % paths.length]!;
      for (const [k, body] of bodies.entries()) {
        expectApiError(await raw(method, path, body), 413, `#${i} ${method} ${path} ${sizes[k]} bytes`);
      }
    }
  });
});

describe("request bodies on /api are JSON, said so by Content-Type (issue 28)", () => {
  const NOT_JSON = ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/json; charset=latin1"];

  it("any other type is 415 in the error shape, and changes nothing", async () => {
    for (const type of NOT_JSON) {
      const userName = uniqueName("ct");
      const client = new Client();
      const res = await client.request("POST", "/api/auth/signup", JSON.stringify({ userName, password: "pass1234" }), { "Content-Type": type });
      expect(res.status, type).toBe(415);
      expectErrorShape(res.json);
      expect(res.json.error).toBe("Content-Type must be application/json (UTF-8)");
      expect(client.cookie, type).toBe("");
      // the account was not made
      expect((await new Client().post("/api/auth/login", { userName, password: "pass1234" })).status, type).toBe(401);
    }
    const { client, user } = await signedUp("ct");
    for (const type of NOT_JSON) {
      const res = await client.request("POST", "/api/echo/post", JSON.stringify({ content: "typed wrong" }), { "Content-Type": type });
      expect(res.status, type).toBe(415);
    }
    const raw = await fetch(`${BASE_URL}/api/echo/post`, { method: "POST", headers: { Cookie: client.cookie }, body: Buffer.from('{"content":"no type"}') });
    expect(raw.status, "no Content-Type at all").toBe(415);
    expect((await client.get(`/api/profile/user/${user._id}/echos`)).json.pagination.total).toBe(0);
    // with the right type (any case, a UTF-8 charset) the same body works
    const ok = await client.request("POST", "/api/echo/post", JSON.stringify({ content: "typed right" }), { "Content-Type": "Application/JSON; charset=utf-8" });
    expect(ok.status).toBe(201);
  });

  it("a call without a body needs no Content-Type: likes, follows, logout work; a route that needs a body says 400", async () => {
    const { client } = await signedUp("nb");
    const other = await signedUp("nb");
    const echo = (await other.client.post("/api/echo/post", { content: "like me" })).json.echo;
    // what modules/shared/api-client sends for these: no body, no Content-Type
    const bare = (method: string, path: string) => fetch(BASE_URL + path, { method, headers: { Cookie: client.cookie } });
    expect((await bare("POST", `/api/echo/like/${echo._id}`)).status).toBe(200);
    expect((await bare("DELETE", `/api/echo/like/${echo._id}`)).status).toBe(200);
    expect((await bare("POST", `/api/profile/user/${other.user._id}/follow`)).status).toBe(200);
    expect((await bare("POST", "/api/notifications/read")).status).toBe(200);
    // Content-Length: 0 with a type that is not JSON is still no body
    const empty = await fetch(`${BASE_URL}/api/echo/${echo._id}/share`, { method: "POST", headers: { Cookie: client.cookie, "Content-Type": "text/plain" }, body: "" });
    expect(empty.status).toBe(200);
    const needsBody = await bare("POST", "/api/echo/post");
    expect(needsBody.status).toBe(400);
    expect(((await needsBody.json()) as { error: string }).error).toBe("Request body must be valid JSON");
    expect((await bare("POST", "/api/auth/logout")).status).toBe(200);
    expect((await client.get("/api/auth/me")).status).toBe(401);
  });
});

describe("OPTIONS says what a path answers and runs nothing (issue 28)", () => {
  const options = (path: string, cookie = "") => fetch(BASE_URL + path, { method: "OPTIONS", headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });

  it("on /api: 204 with the contract's methods, no body, no loader (a guest is not refused, no D1 read)", async () => {
    const { client } = await signedUp("op");
    for (const [path, allow] of [
      ["/api/auth/me", "GET, HEAD, OPTIONS"],
      ["/api/echo/post", "POST, OPTIONS"],
      ["/api/echo/like/01aaaaaaaaaaaaaaaaaaaaaaaa", "POST, DELETE, OPTIONS"],
      ["/api/scroll/01aaaaaaaaaaaaaaaaaaaaaaaa", "GET, HEAD, PATCH, DELETE, OPTIONS"],
      ["/api/scroll/all", "GET, HEAD, OPTIONS"],
      ["/api/profile/me/", "GET, HEAD, PATCH, DELETE, OPTIONS"],
    ]) {
      for (const cookie of ["", client.cookie]) {
        const res = await options(path!, cookie);
        expect(res.status, `${path} ${cookie ? "signed in" : "guest"}`).toBe(204);
        expect(res.headers.get("allow"), path).toBe(allow);
        expect(await res.text()).toBe("");
        // the vertical answered before its request context: no D1 session, so no D1 stats
        expect(res.headers.get("server-timing"), path).toBeNull();
      }
    }
    const none = await options("/api/nowhere");
    expect(none.status).toBe(404);
    expectErrorShape(await none.json());
  });

  it("on pages: 204 with Allow too (POST where the page has an action), never the HTML error page", async () => {
    for (const [path, allow] of [
      ["/", "GET, HEAD, OPTIONS"],
      ["/login", "GET, HEAD, POST, OPTIONS"],
      ["/logout", "GET, HEAD, POST, OPTIONS"],
      ["/settings", "GET, HEAD, POST, OPTIONS"],
      ["/user/by-name/someone", "GET, HEAD, OPTIONS"],
      ["/tag/x/feed.atom", "GET, HEAD, OPTIONS"],
    ]) {
      const res = await options(path!);
      expect(res.status, path).toBe(204);
      expect(res.headers.get("allow"), path).toBe(allow);
      expect(res.headers.get("content-type"), path).toBeNull();
      expect(await res.text()).toBe("");
    }
  });
});
