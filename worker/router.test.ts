// The router Worker's own rules (worker/router.ts), with each vertical stood in by a function that
// records what reached it. The real composition (service bindings, wrangler's runtime) is what
// the API and e2e suites exercise through the router's URL.
import { describe, expect, it } from "vitest";
import { NONCE_HEADER, REQUEST_ID_HEADER, VERTICALS, type Vertical } from "../modules/verticals/index";
import { destination, route } from "./router";

type Seen = { vertical: Vertical; url: string; nonce: string | null; requestId: string | null; body: string };

function verticalsThatRecord(answer: (vertical: Vertical) => Response = (v) => Response.json({ from: v })) {
  const seen: Seen[] = [];
  const forward = async (vertical: Vertical, request: Request) => {
    seen.push({
      vertical,
      url: request.url,
      nonce: request.headers.get(NONCE_HEADER),
      requestId: request.headers.get(REQUEST_ID_HEADER),
      body: await request.text(),
    });
    return answer(vertical);
  };
  return { seen, forward };
}

const origin = "https://echo.example";

describe("the router Worker", () => {
  it("hands an accepted WebSocket (/api/live, decision 016) back untouched, socket and all", async () => {
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    server.accept();
    const { seen, forward } = verticalsThatRecord(() => new Response(null, { status: 101, webSocket: client }));
    const response = await route(new Request(origin + "/api/live?all=1", { headers: { Upgrade: "websocket", Origin: origin } }), forward);
    expect(seen.map((s) => s.vertical)).toEqual(["scrolls"]);
    expect(response.status).toBe(101);
    expect(response.webSocket).toBe(client);
    server.close(1000, "done");
  });

  it("sends each path to its vertical, and an asset prefix to that vertical without the prefix", async () => {
    const { seen, forward } = verticalsThatRecord();
    for (const path of ["/", "/scrolls", "/browse/tags", "/user/1", "/login", "/_v/scrolls/assets/x-1.js"]) await route(new Request(origin + path), forward);
    expect(seen.map((s) => [s.vertical, new URL(s.url).pathname])).toEqual([
      ["echos", "/"],
      ["scrolls", "/scrolls"],
      ["community", "/browse/tags"],
      ["people", "/user/1"],
      ["account", "/login"],
      ["scrolls", "/assets/x-1.js"],
    ]);
  });

  it("lets browsers keep a vertical's built files (content-hashed names), not its pages nor a missing file", async () => {
    const { forward } = verticalsThatRecord((v) => new Response(v, { headers: { "Cache-Control": "public, max-age=0, must-revalidate" } }));
    const asset = await route(new Request(`${origin}/_v/echos/assets/entry.client-abc.js`), forward);
    expect(asset.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const page = await route(new Request(`${origin}/`), forward);
    expect(page.headers.get("Cache-Control")).toBe("public, max-age=0, must-revalidate");
    const missing = verticalsThatRecord(() => new Response("Not found", { status: 404 }));
    expect((await route(new Request(`${origin}/_v/echos/assets/old.js`), missing.forward)).headers.get("Cache-Control")).toBeNull();
  });

  it("answers an unknown asset prefix itself (404), reaching no vertical", async () => {
    const { seen, forward } = verticalsThatRecord();
    for (const path of ["/_v/nope/assets/x.js", "/_v/echos"]) expect((await route(new Request(origin + path), forward)).status).toBe(404);
    expect(seen).toEqual([]);
    expect(destination(new URL(`${origin}/_v/account/assets/a.js`))).toEqual({ vertical: "account", path: "/assets/a.js" });
  });

  it("refuses a cross-site write for every vertical before any vertical sees it", async () => {
    const { seen, forward } = verticalsThatRecord();
    const paths: Record<Vertical, string> = { echos: "/api/echo/post", scrolls: "/api/scroll/create", community: "/community", people: "/api/profile/user/1/follow", account: "/login" };
    for (const vertical of VERTICALS) {
      const res = await route(new Request(origin + paths[vertical], { method: "POST", headers: { Origin: "https://evil.example" }, body: "{}" }), forward);
      expect(res.status, vertical).toBe(403);
      expect(await res.json()).toEqual({ error: "Cross-site request refused", message: "Cross-site request refused" });
      expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    }
    expect(seen).toEqual([]);
  });

  it("refuses a body over 64 KB with the API's 413 before any vertical sees it", async () => {
    const { seen, forward } = verticalsThatRecord();
    const res = await route(new Request(`${origin}/api/echo/post`, { method: "POST", body: "x".repeat(64 * 1024 + 1) }), forward);
    expect(res.status).toBe(413);
    expect(seen).toEqual([]);
  });

  it("makes the nonce and the request id: the vertical gets the router's, never the client's, and the answer's CSP names it", async () => {
    const { seen, forward } = verticalsThatRecord();
    const res = await route(
      new Request(`${origin}/`, { headers: { [NONCE_HEADER]: "chosen-by-attacker", [REQUEST_ID_HEADER]: "forged" } }),
      forward,
    );
    const [got] = seen;
    expect(got!.nonce).not.toBe("chosen-by-attacker");
    expect(got!.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(res.headers.get("Content-Security-Policy")).toContain(`'nonce-${got!.nonce}'`);
    expect(got!.requestId).not.toBe("forged");
    expect(res.headers.get(REQUEST_ID_HEADER)).toBe(got!.requestId);
    for (const header of ["X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy", "Strict-Transport-Security"]) expect(res.headers.has(header), header).toBe(true);
  });

  it("passes a write's body on whole, to the vertical that owns it", async () => {
    const { seen, forward } = verticalsThatRecord();
    await route(new Request(`${origin}/api/scroll/create`, { method: "POST", headers: { Origin: origin, "Content-Type": "application/json" }, body: '{"name":"x"}' }), forward);
    expect(seen).toMatchObject([{ vertical: "scrolls", body: '{"name":"x"}' }]);
  });

  it("refuses an /api body that is not JSON with 415 before any vertical sees it (issue 28)", async () => {
    const { seen, forward } = verticalsThatRecord();
    const body = '{"content":"hi"}';
    for (const type of [null, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/json; charset=latin1", "application/jsonx"]) {
      for (const method of ["POST", "PATCH", "DELETE", "PUT"]) {
        // a string body gets text/plain from Request itself: say "no type" by removing it
        const req = new Request(`${origin}/api/echo/post`, { method, body, headers: type ? { "Content-Type": type } : {} });
        if (!type) req.headers.delete("Content-Type");
        const res = await route(req, forward);
        expect(res.status, `${method} ${type}`).toBe(415);
        expect(await res.json()).toEqual({ error: "Content-Type must be application/json (UTF-8)", message: "Content-Type must be application/json (UTF-8)" });
      }
    }
    expect(seen).toEqual([]);
  });

  it("passes JSON bodies (parameters, any case), bodiless calls, page forms and GET bodies", async () => {
    const { seen, forward } = verticalsThatRecord();
    const post = (path: string, init: RequestInit) => route(new Request(origin + path, { method: "POST", ...init }), forward);
    for (const type of ["application/json", "Application/JSON; charset=UTF-8", "application/json;charset=\"utf-8\"", "application/json; foo=bar"]) {
      expect((await post("/api/echo/post", { body: "{}", headers: { "Content-Type": type } })).status, type).toBe(200);
    }
    // a like, a follow, logout: no body and no Content-Type (what modules/shared/api-client sends)
    expect((await post("/api/echo/like/1", {})).status).toBe(200);
    expect((await route(new Request(`${origin}/api/scroll/1/follow`, { method: "DELETE" }), forward)).status).toBe(200);
    // an empty body is no body, whatever type it claims
    expect((await post("/api/auth/logout", { body: "", headers: { "Content-Type": "text/plain" } })).status).toBe(200);
    // pages take forms
    expect((await post("/login", { body: "userName=a&password=b", headers: { "Content-Type": "application/x-www-form-urlencoded" } })).status).toBe(200);
    expect(seen.map((s) => new URL(s.url).pathname)).toEqual(["/api/echo/post", "/api/echo/post", "/api/echo/post", "/api/echo/post", "/api/echo/like/1", "/api/scroll/1/follow", "/api/auth/logout", "/login"]);
  });

  it("on the local runtime, replaces a client's CF-Connecting-IP; on the edge, passes Cloudflare's on (issue 28)", async () => {
    const { seen, forward } = verticalsThatRecord();
    const ipSeen: (string | null)[] = [];
    const recordIp = async (vertical: Vertical, request: Request) => {
      ipSeen.push(request.headers.get("CF-Connecting-IP"));
      return forward(vertical, request);
    };
    const forged = (ip: string) => new Request(`${origin}/api/auth/me`, { headers: { "CF-Connecting-IP": ip } });
    await route(forged("198.51.100.1"), recordIp, { localRuntime: true });
    await route(forged("203.0.113.9"), recordIp, { localRuntime: true });
    await route(new Request(`${origin}/api/auth/me`), recordIp, { localRuntime: true });
    await route(forged("198.51.100.1"), recordIp);
    expect(ipSeen).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1", "198.51.100.1"]);
    expect(seen).toHaveLength(4);
  });

  it("keeps /api answers in the API's shape whatever a vertical sent", async () => {
    const html = verticalsThatRecord(() => new Response("<html>", { status: 404, headers: { "Content-Type": "text/html" } }));
    const res = await route(new Request(`${origin}/api/echo/nope`), html.forward);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "No such API route", message: "No such API route" });
  });
});
