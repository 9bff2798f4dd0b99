// `npm start`: build every vertical, apply migrations to the local D1 in STATE_DIR, serve the
// router Worker and all vertical Workers in one wrangler dev session (one local runtime: the
// service bindings connect them, D1 and KV state is shared through STATE_DIR) on PORT (default
// 8787). SKIP_BUILD=1 reuses build/.
//
// It also fires the cron triggers the configs declare, on their schedule (scripts/cron.mjs):
// wrangler's local runtime never does. LOCAL_CRONS=0 turns that off; LOCAL_CRON_EVERY_MS=<ms>
// fires every cron every <ms> instead (tests). Local traces are off unless LOCAL_TRACES=1 (lib.mjs).
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startCronRunner } from "./cron.mjs";
import { env, migrate, root, run, stateDir } from "./lib.mjs";
import { VERTICALS, buildVerticals, builtConfig } from "./build.mjs";

await run("node", ["scripts/ensure-dev-vars.mjs"]);
if (process.env.SKIP_BUILD !== "1") await buildVerticals();
const dir = stateDir();
// SKIP_MIGRATE=1: a restart on a state dir this checkout's migrations were just applied to (tests)
if (process.env.SKIP_MIGRATE !== "1") await migrate(dir);
const port = process.env.PORT || "8787";

/**
 * `wrangler dev --var` and .dev.vars reach only the first Worker of a session (the router), so
 * each vertical gets a copy of its built config beside it (relative paths still hold), with the
 * secret from .dev.vars and WRANGLER_VARS (NAME:value,…) in its vars. One copy per port: two
 * servers of one checkout (the test runner's) do not share it.
 */
function localConfig(vertical) {
  const built = path.join(root, builtConfig(vertical));
  const config = JSON.parse(readFileSync(built, "utf8"));
  const secrets = readFileSync(path.join(root, ".dev.vars"), "utf8").split("\n").filter((l) => l.includes("="));
  for (const line of secrets) config.vars[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
  for (const pair of (process.env.WRANGLER_VARS || "").split(",").filter(Boolean)) {
    config.vars[pair.slice(0, pair.indexOf(":"))] = pair.slice(pair.indexOf(":") + 1);
  }
  const copy = path.join(path.dirname(built), `wrangler.local-${port}.json`);
  writeFileSync(copy, JSON.stringify(config));
  return copy;
}

// the first config is the one that gets the port: the router
const configs = ["wrangler.toml", ...VERTICALS.map(localConfig)].flatMap((c) => ["-c", c]);
const args = ["dev", ...configs, "--port", port, "--ip", "127.0.0.1", "--persist-to", dir, "--show-interactive-dev-session=false"];
if (process.env.INSPECTOR_PORT) args.push("--inspector-port", process.env.INSPECTOR_PORT);
const child = spawn("wrangler", args, { cwd: root, stdio: "inherit", env: env() });

// The crons of the session's Workers, from their built configs (`[triggers] crons` of
// verticals/<name>/wrangler.toml: the community vertical's ranking pass). They are fired on the
// router, which passes the event on to the community vertical (worker/index.ts).
const crons = [...new Set(VERTICALS.flatMap((v) => JSON.parse(readFileSync(path.join(root, builtConfig(v)), "utf8")).triggers?.crons ?? []))];
const everyMs = Number(process.env.LOCAL_CRON_EVERY_MS) || undefined;
const cronRunner =
  process.env.LOCAL_CRONS === "0" || crons.length === 0
    ? undefined
    : startCronRunner({ baseUrl: `http://127.0.0.1:${port}`, expressions: crons, everyMs });
if (cronRunner) console.log(`[local cron] firing ${crons.join(", ")} ${everyMs ? `every ${everyMs} ms` : "on schedule (UTC)"}; LOCAL_CRONS=0 turns it off`);

const stop = () => {
  cronRunner?.stop();
  child.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));
