import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Two layers (README, "Test it"): `workers` runs unit and module-service tests inside workerd
// against a real local D1 with the migrations applied; `api` talks real HTTP to a running
// production build (BASE_URL, started by scripts/test.mjs).
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    resolve: { tsconfigPaths: true },
    // the vertical a build serves (vite.config.ts); tests see the one app with every route
    define: { __ECHO_VERTICAL__: JSON.stringify("") },
    test: {
      projects: [
        {
          resolve: { tsconfigPaths: true },
          plugins: [
            cloudflareTest({
              miniflare: {
                compatibilityDate: "2026-10-15",
                compatibilityFlags: ["nodejs_compat"],
                d1Databases: ["DB"],
                kvNamespaces: ["KV"],
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
                  AUTH_IP_LIMIT_PER_MINUTE: "30",
                },
              },
            }),
          ],
          test: {
            name: "workers",
            include: ["modules/**/*.test.ts", "worker/**/*.test.ts"],
            setupFiles: ["./tests/setup-workers.ts"],
            // one workerd runtime per vitest worker, not one per file (issue 30): the setup file
            // gives each file what a runtime of its own did (an empty, migrated D1 and KV, and the
            // app's modules evaluated afresh). The module tests (65 files) 296.8 → 179.5 CPU-s, one run each
            isolate: false,
            // the 5 s default failed four module tests (ranking, replies, quotes) of a full run at
            // load ~15 on this 2-core machine (issue 28: CI must not flake under load); a test's own
            // budget assertions are about rows and round trips, not seconds
            testTimeout: 30_000,
          },
        },
        {
          // 30 s: a property test over thousands of strings took 6.6 s of the 5 s default at load ~25
          test: { name: "node", include: ["tests/node/**/*.test.ts"], environment: "node", testTimeout: 30_000 },
        },
        {
          resolve: { tsconfigPaths: true },
          test: {
            name: "api",
            include: ["tests/api/**/*.test.ts"],
            environment: "node",
            // one process for every file (issue 30, `npm test`'s CPU): the files talk to the server
            // over HTTP and keep no state but caches (the contract, a name counter), so a fresh
            // module graph per file bought nothing; 12 files measured 17.5 → 10.5 client CPU-s
            // (~0.6 CPU-s a file: vitest's per-file worker and the client's imports)
            isolate: false,
            // a fresh clone's CI at load ~15 (six other test runs on 2 cores) timed out four tests
            // that write a few hundred echos at 30 s (feed-index, page-numbers); their assertions
            // are rows, round trips and order, so a slow machine may take longer, not fail
            // and at load ~25-32 (issue 28's CI under load) the feed-index storm ran past 240 s:
            // every API test's own limit is now 10 minutes, the default 5
            testTimeout: 300_000,
            hookTimeout: 600_000,
          },
        },
      ],
    },
  };
});
