// Faults: when D1 fails (injected on the test server: FAULT_INJECTION=1 + `X-Echo-Fault: d1`),
// the API answers 503 with the error shape, pages show an error state without internals, nothing
// is half-written, and the worker keeps serving.
import { describe, expect, it } from "vitest";
import { BASE_URL, expectErrorShape, signedUp } from "./client";

const FAULT = { "X-Echo-Fault": "d1" };

describe("when D1 fails", () => {
  it("GET and POST /api answer 503 with the error shape and Retry-After; nothing is written", async () => {
    const { client, user } = await signedUp("fd");
    for (const res of [
      await client.get("/api/echo/all", FAULT),
      await client.get("/api/auth/me", FAULT),
      await client.get("/api/community/tags", FAULT),
      await client.post("/api/echo/post", { content: "during the outage", tags: ["outage"] }, FAULT),
      await client.post("/api/scroll/create", { name: "outage", type: "feed" }, FAULT),
    ]) {
      expect(res.status).toBe(503);
      expectErrorShape(res.json);
      expect(res.json.error).toBe("Service temporarily unavailable, please try again");
      expect(res.headers.get("retry-after")).toBe("5");
    }
    // the worker is fine afterwards, and the failed writes left nothing behind
    expect((await fetch(`${BASE_URL}/api/health`)).status).toBe(200);
    const mine = await client.get(`/api/echo/all?user=${user._id}`);
    expect(mine.status).toBe(200);
    expect(mine.json.pagination.total).toBe(0);
    expect((await client.get("/api/echo/tag/outage")).json.pagination.total).toBe(0);
    expect((await client.get("/api/scroll/all")).json.scrolls).toEqual([]);
  });

  it("a page shows an error state, never a stack or SQL", async () => {
    const { client } = await signedUp("fp");
    const res = await client.get("/", FAULT);
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.text).toContain("Something went wrong");
    expect(res.text).not.toMatch(/D1_ERROR|SQLITE|at \S+ \(|\.ts:\d+/);
    expect((await client.get("/")).status).toBe(200);
  });

  it("sign-up during the outage fails cleanly and the name stays free", async () => {
    const userName = `fs${Date.now().toString(36)}`;
    const res = await fetch(`${BASE_URL}/api/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...FAULT },
      body: JSON.stringify({ userName, password: "pass1234" }),
    });
    expect(res.status).toBe(503);
    const retry = await fetch(`${BASE_URL}/api/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ userName, password: "pass1234" }),
    });
    expect(retry.status).toBe(201);
  });
});

describe("when KV fails", () => {
  it("community reads fall back to D1 and still answer (the cache is an optimisation)", async () => {
    const { client } = await signedUp("fk");
    await client.post("/api/echo/post", { content: "kv outage", tags: ["kvoutage"] });
    const res = await client.get("/api/community/tags?limit=100", { "X-Echo-Fault": "kv" });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
    expect((await client.get("/api/community/echos/popular?limit=3", { "X-Echo-Fault": "kv" })).status).toBe(200);
    expect((await client.get("/community", { "X-Echo-Fault": "kv" })).status).toBe(200);
  });
});
