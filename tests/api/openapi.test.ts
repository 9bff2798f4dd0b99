// The published contract (decision 018): GET /api/openapi.json describes every /api route of
// the route table (modules/verticals/table.ts) and no other, with the methods each one really answers; it is public,
// cacheable and reads nothing from D1; /developers shows it to people.
import { beforeAll, describe, expect, it } from "vitest";
import { apiRoutePaths } from "../../modules/verticals/index";
import { BASE_URL, Client, signedUp } from "./client";
import { compileAll, contractOf, contractViolation } from "./contract";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let doc: Json;
beforeAll(async () => {
  const res = await new Client().get("/api/openapi.json");
  expect(res.status).toBe(200);
  doc = res.json;
});

/** Every /api route of the one route table (modules/verticals/table.ts), catch-all left out. */
const declaredApiRoutes = (): string[] => apiRoutePaths();

/** The document's operations: path, method, the route table's pattern it names. */
function operations(): { path: string; method: string; route: string }[] {
  return Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
    Object.entries(methods as Json).map(([method, op]) => ({ path, method: method.toUpperCase(), route: op["x-echo-route"] as string })),
  );
}

describe("GET /api/openapi.json", () => {
  it("is OpenAPI 3.1, public, cacheable, and costs no D1 round trip", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const res = await fetch(`${BASE_URL}/api/openapi.json`);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    // the test server exposes D1 stats (EXPOSE_D1_STATS=1)
    expect(res.headers.get("server-timing")).toMatch(/rt=0 rows=0/);
  });

  it("describes every /api route of the route table, and only those", () => {
    const declared = declaredApiRoutes();
    const documented = [...new Set(operations().map((o) => o.route))];
    expect(declared.filter((r) => !documented.includes(r)), "routes missing from the document").toEqual([]);
    expect(documented.filter((r) => !declared.includes(r)), "documented routes that do not exist").toEqual([]);
    for (const { path, route } of operations()) expect(path).toBe(`/api/${route.replace(/:(\w+)/g, "{$1}")}`);
  });

  it("names the methods each route answers: a documented one is never 405, any other always is", async () => {
    const guest = new Client();
    const wrong: string[] = [];
    const byPath = new Map<string, string[]>();
    for (const { path, method } of operations()) byPath.set(path, [...(byPath.get(path) ?? []), method]);
    await Promise.all(
      [...byPath].flatMap(([path, methods]) =>
        ["GET", "POST", "PATCH", "PUT", "DELETE"].map(async (method) => {
          // placeholders filled with an id nothing has: a guest gets 401/404/400, never a write
          const url = path.replace(/\{\w+\}/g, "01aaaaaaaaaaaaaaaaaaaaaaaa");
          const res = await guest.request(method, url, method === "GET" ? undefined : {});
          if ((res.status === 405) !== !methods.includes(method)) wrong.push(`${method} ${url} → ${res.status}`);
        }),
      ),
    );
    expect(wrong).toEqual([]);
  });

  it("OPTIONS on every documented path is 204 with Allow naming exactly its methods, and runs nothing", async () => {
    const guest = new Client();
    const byPath = new Map<string, string[]>();
    for (const { path, method } of operations()) byPath.set(path, [...(byPath.get(path) ?? []), method]);
    const wrong: string[] = [];
    for (const [path, methods] of byPath) {
      const url = path.replace(/\{\w+\}/g, "01aaaaaaaaaaaaaaaaaaaaaaaa");
      // a guest: a loader that ran would answer 401 (every route but a few needs a session)
      const res = await guest.request("OPTIONS", url);
      const allow = (res.headers.get("allow") ?? "").split(", ").filter((m) => m !== "HEAD" && m !== "OPTIONS");
      if (res.status !== 204 || res.text !== "" || allow.sort().join() !== [...methods].sort().join()) {
        wrong.push(`${url} → ${res.status} Allow: ${res.headers.get("allow")} ${res.text.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect((await guest.request("OPTIONS", "/api/no/such/route")).status).toBe(404);
  });

  it("gives every operation a summary, its answers and the error shape; bodies and parameters have schemas", () => {
    for (const [path, methods] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(methods as Json)) {
        const where = `${method} ${path}`;
        expect(op.summary, where).toBeTruthy();
        // a success, or a WebSocket upgrade (GET /api/live: 101 Switching Protocols)
        expect(Object.keys(op.responses).some((s) => /^(2\d\d|101)$/.test(s)), where).toBe(true);
        expect(op.responses["4XX"].content["application/json"].schema, where).toEqual({ $ref: "#/components/schemas/Error" });
        for (const name of path.match(/\{\w+\}/g) ?? []) {
          expect(op.parameters.some((p: Json) => p.in === "path" && `{${p.name}}` === name), `${where} ${name}`).toBe(true);
        }
        // a string, or one fixed string (GET /api/live's all=1)
        for (const p of op.parameters ?? []) expect(p.schema.type ?? typeof p.schema.const, `${where} ${p.name}`).toBe("string");
        if (op.requestBody) expect(op.requestBody.content["application/json"].schema.type, where).toBe("object");
      }
    }
    expect(doc.paths["/api/live"].get.responses["101"].description).toMatch(/"type": "echo"/);
    expect(doc.paths["/api/echo/post"].post.requestBody.content["application/json"].schema.properties.tags.type).toBe("array");
    expect(doc.paths["/api/echo/tag/{name}"].get.parameters.map((p: Json) => p.name)).toEqual(["name", "orderBy", "timeframe", "startDate", "endDate", "page", "limit", "cursor"]);
  });
});

describe("the API tests' contract check (every answer the test client receives)", () => {
  it("compiles every response schema of the document (the client compiles each when first used)", async () => {
    expect(compileAll(await contractOf(BASE_URL))).toBeGreaterThan(200);
  });

  it("passes a real answer, and fails one that drifts from the document", async () => {
    const contract = await contractOf(BASE_URL);
    const { client } = await signedUp("oa");
    const posted = await client.post("/api/echo/post", { content: "contract", tags: ["oa"] });
    const url = `${BASE_URL}/api/echo/echo/${posted.json.echo._id}`;
    const { json } = await client.get(`/api/echo/echo/${posted.json.echo._id}`);
    expect(contractViolation(contract, "GET", url, 200, json)).toBeNull();
    const { likes: _, ...withoutLikes } = json.echo;
    const drifted = [
      { echo: withoutLikes },
      { echo: { ...json.echo, likes: "1" } },
      { echo: { ...json.echo, extra: true } },
      { echo: { ...json.echo, author: { _id: json.echo.author._id } } },
      json.echo,
    ];
    for (const body of drifted) expect(contractViolation(contract, "GET", url, 200, body), JSON.stringify(body)).toMatch(/does not match the contract/);
    // a status the operation does not list, a method it does not have, an error without the shape
    expect(contractViolation(contract, "GET", url, 201, json)).toMatch(/status not in the contract/);
    expect(contractViolation(contract, "PUT", url, 200, json)).toMatch(/the contract has no PUT/);
    expect(contractViolation(contract, "GET", url, 404, { error: "Echo not found" })).toMatch(/not the error shape/);
    expect(contractViolation(contract, "GET", `${BASE_URL}/api/no/such/route`, 404, { error: "x", message: "x" })).toBeNull();
    // what the router serves as the same operation: a trailing slash, HEAD through the loader
    expect(contractViolation(contract, "GET", `${url}/`, 200, json)).toBeNull();
    expect(contractViolation(contract, "HEAD", url, 200, { echo: withoutLikes })).toMatch(/does not match the contract/);
    // OPTIONS runs nothing (issue 28): a body on its success is the loader having run
    expect(contractViolation(contract, "OPTIONS", url, 204, undefined)).toBeNull();
    expect(contractViolation(contract, "OPTIONS", url, 200, json)).toMatch(/OPTIONS answered a body/);
    // a 415 is an error like any other: the error shape is all the contract asks of it
    expect(contractViolation(contract, "POST", `${BASE_URL}/api/echo/post`, 415, { error: "x", message: "x" })).toBeNull();
  });
});

describe("GET /developers", () => {
  it("lists every operation, public and cacheable", async () => {
    const res = await fetch(`${BASE_URL}/developers`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const html = await res.text();
    for (const { path, method } of operations()) expect(html, `${method} ${path}`).toContain(`<code>${method} ${path}</code>`);
    expect(html).not.toContain("<script");
  });
});
