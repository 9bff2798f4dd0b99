// Local state stays bounded: wrangler's local runtime records a trace of every request into
// <state>/v3/observability/…sqlite unless told not to (X_LOCAL_OBSERVABILITY=false, which the
// scripts set unless LOCAL_TRACES=1: scripts/lib.mjs). Measured before the switch: 4.7 MB after
// 300 requests, 548 MB after an hour of benchmarking. Needs the server's state dir
// (TEST_STATE_DIR, set by scripts/test.mjs); skipped against a server started elsewhere.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BASE_URL } from "./client";

const stateDir = process.env.TEST_STATE_DIR;

describe("local traces", () => {
  it.skipIf(!stateDir)("300 requests to the local server leave no trace store behind", async () => {
    const store = path.join(stateDir!, "v3");
    expect(existsSync(store), `${store} is not the server's state`).toBe(true);
    for (let i = 0; i < 300; i++) {
      const res = await fetch(`${BASE_URL}${i % 3 === 0 ? "/login" : "/api/health"}`);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    }
    expect(readdirSync(store)).not.toContain("observability");
  });
});
