// `npm test`: everything, in order of cost. typecheck → lint → unit + module services in workerd
// → build → client JS budgets → `npm run dev` smoke → /api over real HTTP → Playwright e2e in
// Debian's Chromium. Stops at the first failure.
import { buildVerticals } from "./build.mjs";
import { devSmoke } from "./dev-smoke.mjs";
import { allVerdicts } from "./js-budget.mjs";
import { run } from "./lib.mjs";
import { startServer } from "./server.mjs";

const started = Date.now();
const step = async (name, fn) => {
  const t = Date.now();
  console.log(`\n=== ${name}`);
  await fn();
  console.log(`=== ${name}: ok (${((Date.now() - t) / 1000).toFixed(1)} s)`);
};

await step("typecheck", () => run("npm", ["run", "typecheck", "--silent"]));
await step("lint", () => run("npm", ["run", "lint", "--silent"]));
await step("unit (node) + module services (workerd, real D1)", () => run("vitest", ["run", "--project", "workers", "--project", "node"]));
await step("build (every vertical)", () => buildVerticals());
// sizes of a build are deterministic: the JS budgets hold or the build fails the run
await step("client JS budgets (from the build)", async () => {
  const verdicts = allVerdicts();
  for (const v of verdicts) console.log(`${v.ok ? "met " : "MISS"} ${v.name}: ${v.detail}`);
  const missed = verdicts.filter((v) => !v.ok);
  if (missed.length) throw new Error(`JS budget missed (node scripts/js-budget.mjs lists the chunks): ${missed.map((v) => v.name).join("; ")}`);
});

// `npm run dev` on a fresh state dir: sign up, post, like, a hot reload (scripts/dev-smoke.mjs)
await step("npm run dev smoke (sign-up, post, like, hot reload)", () => devSmoke());

// One production server on an empty store, on a free port, serves both HTTP layers. Its per-IP auth limit is
// raised because every test client is 127.0.0.1; the per-name limit stays as in production.
const server = await startServer({ vars: { AUTH_IP_LIMIT_PER_MINUTE: "100000", EXPOSE_D1_STATS: "1", FAULT_INJECTION: "1" } });
try {
  const testEnv = { TEST_BASE_URL: server.baseUrl, TEST_STATE_DIR: server.stateDir };
  await step("api over real HTTP", () => run("vitest", ["run", "--project", "api"], { env: testEnv }));
  await step("e2e (Playwright, Chromium)", () => run("playwright", ["test"], { env: testEnv }));
} catch (error) {
  console.error(server.log().slice(-8000));
  throw error;
} finally {
  await server.stop();
}
// Empty states of the global community lists need a store nobody has written to: a second,
// fresh server for that one spec.
const empty = await startServer({ vars: { AUTH_IP_LIMIT_PER_MINUTE: "100000" } });
try {
  await step("e2e on an empty store (community empty states)", () =>
    run("playwright", ["test", "e2e/community-empty.spec.ts"], { env: { TEST_BASE_URL: empty.baseUrl, E2E_EMPTY_STORE: "1" } }),
  );
} catch (error) {
  console.error(empty.log().slice(-8000));
  throw error;
} finally {
  await empty.stop();
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
