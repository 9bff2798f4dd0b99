// The API's promise: every error is `{ error, message }` JSON, and no answer ever shows a server
// path (issue 12). Oversized bodies used to get wrangler's text 500 naming its own source file
// now and then; methods no route serves got `{"message":"Unexpected Server Error"}`.
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { BASE_URL, expectErrorShape } from "./client";

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
