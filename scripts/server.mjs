// Start the production build (`npm start` path, SKIP_BUILD=1) on a fresh state dir and wait
// until it answers; used by the test runner and the benchmark.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { env, freePort, migrate as applyMigrations, root } from "./lib.mjs";

/**
 * A state dir with every migration applied, made once per set of migrations (and wrangler
 * version) and shared by every server this machine starts after it: applying the migrations
 * costs ~20 CPU-s a time (wrangler and a runtime of its own, measured at 19–21), and `npm test`
 * starts five or six servers on empty stores (issue 30, its CPU). `npm run dev` (the dev smoke)
 * still applies them to a fresh store, and so does the first server after a migration changes.
 */
let template;
function migratedTemplate() {
  template ??= (async () => {
    const hash = createHash("sha256").update(readFileSync(path.join(root, "node_modules/wrangler/package.json")));
    for (const name of readdirSync(path.join(root, "migrations")).filter((n) => n.endsWith(".sql")).sort()) {
      hash.update(name).update(readFileSync(path.join(root, "migrations", name)));
    }
    const dir = path.join(os.tmpdir(), `echo-migrated-${hash.digest("hex").slice(0, 16)}`);
    if (existsSync(dir)) return dir;
    const made = mkdtempSync(`${dir}-`);
    try {
      await applyMigrations(made, { quiet: true });
      // another process may have made it meanwhile: theirs is as good (the rename then fails)
      renameSync(made, dir);
    } catch (error) {
      rmSync(made, { recursive: true, force: true });
      if (!existsSync(dir)) throw error;
    }
    return dir;
  })();
  return template;
}

// Without a port it takes a free one (the test runner does): see freePort.
// `crons`: false (the default) fires no cron on its own, so a test or benchmark sees a ranking
// pass only when it asks for one (`/cdn-cgi/handler/scheduled`, as `npm run rank`); true fires
// them on their schedule as `npm start` does; a number of ms fires every cron that often
// (LOCAL_CRON_EVERY_MS, scripts/cron.mjs).
// `migrate: false` skips applying the migrations: a restart on a state dir just migrated.
export async function startServer({ port, vars = {}, stateDir, quiet = true, crons = false, migrate = true } = {}) {
  port ??= await freePort();
  const inspectorPort = await freePort();
  // Something already answering on the port (another checkout's server) would pass the health
  // check below, and the tests would run against it: refuse instead.
  const busy = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5000) }).then(
    () => true,
    (error) => error?.cause?.code !== "ECONNREFUSED",
  );
  if (busy) throw new Error(`port ${port} is already in use: stop the server there first`);
  const dir = stateDir ?? mkdtempSync(path.join(os.tmpdir(), "echo-state-"));
  // an empty store starts as a copy of the migrated one
  const fresh = migrate && readdirSync(dir).length === 0;
  if (fresh) cpSync(await migratedTemplate(), dir, { recursive: true });
  const child = spawn("node", ["scripts/start.mjs"], {
    cwd: root,
    env: env({
      SKIP_BUILD: "1",
      STATE_DIR: dir,
      PORT: String(port),
      INSPECTOR_PORT: String(inspectorPort),
      WRANGLER_VARS: Object.entries(vars).map(([k, v]) => `${k}:${v}`).join(","),
      LOCAL_CRONS: crons === false ? "0" : "1",
      LOCAL_CRON_EVERY_MS: typeof crons === "number" ? String(crons) : "",
      SKIP_MIGRATE: migrate && !fresh ? "" : "1",
      // a quiet server's log is read only on a failure: without wrangler's line per request (its
      // runtime posts each to wrangler's node process) a request costs ~0.8 ms less CPU (issue 30:
      // 2,000 health checks 8.5 → 6.8 CPU-s of the server); warnings, errors and the app's own
      // console.error stay. WRANGLER_LOG in the environment still wins.
      ...(quiet && !process.env.WRANGLER_LOG ? { WRANGLER_LOG: "warn" } : {}),
    }),
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    detached: true,
  });
  let log = "";
  child.stdout?.on("data", (d) => (log += d));
  child.stderr?.on("data", (d) => (log += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  // 5 minutes: wrangler's first start applies every migration and took over 2 under load ~16
  // (a fresh-clone CI run beside other test sessions); a healthy start takes seconds
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${log}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    baseUrl,
    inspectorPort,
    // the runtime's process group (node, wrangler and workerd): a test may kill it outright
    pid: child.pid,
    stateDir: dir,
    log: () => log,
    async stop() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      await new Promise((r) => setTimeout(r, 500));
      if (!stateDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
