// Helpers shared by the npm scripts: run a command on the project's Node (node_modules/.bin
// first on PATH, which is how `npm run` already runs) and resolve the local state directory.
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const bin = path.join(root, "node_modules", ".bin");
export const stateDir = () => path.resolve(root, process.env.STATE_DIR || ".wrangler/state");

/**
 * Local traces: wrangler's local runtime (and the Vite plugin's) records a trace of every request
 * into <state>/v3/observability/…sqlite whenever X_LOCAL_OBSERVABILITY is not "false", whatever
 * the configs' `[observability]` says (that block only matters deployed, where it stays on).
 * Unbounded locally (548 MB after an hour of benchmarking), so off unless LOCAL_TRACES=1.
 */
export const localObservability = () => (process.env.LOCAL_TRACES === "1" ? "true" : "false");

export function env(extra = {}) {
  return {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    WRANGLER_SEND_METRICS: "false",
    X_LOCAL_OBSERVABILITY: localObservability(),
    ...extra,
  };
}

export function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: "inherit", env: env(options.env), ...options.spawn });
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} failed (${signal ?? code})`)),
    );
  });
}

export function migrate(dir = stateDir(), { quiet = false } = {}) {
  // every vertical binds the same D1; any one of their configs names it and its migrations
  return run("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", dir, "-c", "verticals/echos/wrangler.toml"], {
    env: { CI: "true" },
    ...(quiet ? { spawn: { stdio: "ignore" } } : {}),
  });
}

// A TCP port nothing listens on now (the OS picks it): test servers take one instead of a fixed
// number, so a busy port on a shared machine or CI host is never a red run.
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}
