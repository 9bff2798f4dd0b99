// `npm test`: everything; stops at the first failure. From the start, side by side: unit + module
// services in workerd (they need no build), and typecheck ‖ lint → build → client JS budgets →
// then, side by side: the `npm run dev` smoke, then e2e on an empty store; /api over real HTTP in
// two shards, each against a production server and store of its own; the Playwright e2e suite in
// Debian's Chromium against another.
// Why side by side (issue 30): one after another took 1,397 s on a quiet 2-core machine, and the
// two long suites each kept about one core busy (the rest is waiting on the server, the browser,
// timers): measured CPU over wall time, API ≈ 1.0–1.3 cores, e2e ≈ 1.0. Each suite has its own
// server and store, so neither sees the other's data; they share only the CPU.
import { buildVerticals } from "./build.mjs";
import { allVerdicts } from "./js-budget.mjs";
import { startServer } from "./server.mjs";
import { run, step, stopAll, together } from "./steps.mjs";
import { readdirSync } from "node:fs";

const started = Date.now();
// the per-IP auth limit is raised because every test client is 127.0.0.1; the per-name limit stays
// as in production. FAULT_INJECTION also makes the test server's password hashes cheap (auth module).
const TEST_VARS = { AUTH_IP_LIMIT_PER_MINUTE: "100000", EXPOSE_D1_STATS: "1", FAULT_INJECTION: "1" };
const servers = [];
async function server(vars) {
  const s = await startServer({ vars });
  servers.push(s);
  return s;
}
async function stopServers() {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
}
/**
 * A step against a server of its own: on failure the server's log tail goes with the error; when
 * the step ends the server stops (an idle local runtime still costs ~1.2 % of a core, measured 0.72
 * CPU-s a minute: the empty-store server waited out the whole run for a 10-second spec).
 */
async function against(s, fn) {
  try {
    await fn();
  } catch (error) {
    console.error(s.log().slice(-8000));
    throw error;
  } finally {
    if (servers.includes(s)) servers.splice(servers.indexOf(s), 1);
    await s.stop();
  }
}
const onSignal = () => {
  stopAll();
  void stopServers().then(() => process.exit(130));
};
process.once("SIGINT", onSignal);
process.once("SIGTERM", onSignal);

/**
 * The /api files in two shards, balanced by their seconds in a quiet run (2026-12-07; a file not
 * listed counts 5). Why (issue 30): the suite used 428 CPU-s over 1,434 s of wall in one process —
 * its files wait on the server, timers and sockets one after another, the long pole of the run.
 * Two vitest processes against ONE server failed 3 of 1,008 tests (files that read the community
 * lists or a live channel saw the other process's writes), so each shard has its own server and
 * store: within a shard the files run in order on a shared store, as the whole suite did.
 */
const API_SECONDS = { fuzz: 368, budgets: 83, "live-conversation": 65, "feed-index-storm": 59, live: 44, "feed-index": 39, "bounded-deletes": 37, "following-fanout": 27, "authz-matrix": 23, "live-one-socket": 23, limits: 22, scrolls: 17, replies: 16, "worst-case-budgets": 11 };
function apiShards(count = 2) {
  const files = readdirSync("tests/api").filter((f) => f.endsWith(".test.ts"));
  const seconds = (f) => API_SECONDS[f.replace(/\.test\.ts$/, "")] ?? 5;
  const shards = Array.from({ length: count }, () => ({ seconds: 0, files: [] }));
  for (const f of files.sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
    const lightest = shards.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.seconds += seconds(f);
    lightest.files.push(`tests/api/${f}`);
  }
  return shards.map((s) => s.files);
}

/** The suites that run against the build, side by side, each on its own server and store. */
async function suites() {
  await together(
    (async () => {
      // `npm run dev` on a fresh state dir: sign up, post, like, a hot reload (scripts/dev-smoke.mjs)
      await step("npm run dev smoke (sign-up, post, like, hot reload)", () => run("dev", "node", ["scripts/dev-smoke.mjs"]));
      // Empty states of the global community lists need a store nobody has written to: a server of its own.
      const empty = await server({ AUTH_IP_LIMIT_PER_MINUTE: "100000" });
      await step("e2e on an empty store (community empty states)", () =>
        against(empty, () =>
          // its own output dir: Playwright empties its output dir when it starts, and the main suite's
          // (test-results/) may be in use beside it
          run("e2e-empty", "playwright", ["test", "e2e/community-empty.spec.ts", "--output", "test-results-empty"], { env: { TEST_BASE_URL: empty.baseUrl, E2E_EMPTY_STORE: "1" } }),
        ),
      );
    })(),
    ...apiShards().map((files, i) =>
      (async () => {
        const api = await server(TEST_VARS);
        await step(`api over real HTTP, shard ${i + 1} (${files.length} files)`, () =>
          against(api, () => run(`api${i + 1}`, "vitest", ["run", "--project", "api", ...files], { env: { TEST_BASE_URL: api.baseUrl, TEST_STATE_DIR: api.stateDir } })),
        );
      })(),
    ),
    (async () => {
      const e2e = await server(TEST_VARS);
      await step("e2e (Playwright, Chromium)", () =>
        against(e2e, () => run("e2e", "playwright", ["test"], { env: { TEST_BASE_URL: e2e.baseUrl, TEST_STATE_DIR: e2e.stateDir } })),
      );
    })(),
  );
}

try {
  await together(
    // the module tests read the sources only: they need no build, so they fill the second core
    // while typecheck, lint and the build (about one core between them) run (issue 30)
    step("unit (node) + module services (workerd, real D1)", () => run("module", "vitest", ["run", "--project", "workers", "--project", "node"])),
    (async () => {
      await together(
        step("typecheck", () => run("typecheck", "npm", ["run", "typecheck", "--silent"])),
        step("lint", () => run("lint", "npm", ["run", "lint", "--silent"])),
      );
      await step("build (every vertical)", () => buildVerticals());
      // sizes of a build are deterministic: the JS budgets hold or the build fails the run
      await step("client JS budgets (from the build)", async () => {
        const verdicts = allVerdicts();
        for (const v of verdicts) console.log(`${v.ok ? "met " : "MISS"} ${v.name}: ${v.detail}`);
        const missed = verdicts.filter((v) => !v.ok);
        if (missed.length) throw new Error(`JS budget missed (node scripts/js-budget.mjs lists the chunks): ${missed.map((v) => v.name).join("; ")}`);
      });
      await suites();
    })(),
  );
} finally {
  await stopServers();
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
