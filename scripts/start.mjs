// `npm start`: build every vertical, apply migrations to the local D1 in STATE_DIR, serve the
// router Worker and all vertical Workers in one wrangler dev session (one local runtime: the
// service bindings connect them, D1 and KV state is shared through STATE_DIR) on PORT (default
// 8787). SKIP_BUILD=1 reuses build/.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env, migrate, root, run, stateDir } from "./lib.mjs";
import { VERTICALS, buildVerticals, builtConfig } from "./build.mjs";

await run("node", ["scripts/ensure-dev-vars.mjs"]);
if (process.env.SKIP_BUILD !== "1") await buildVerticals();
const dir = stateDir();
await migrate(dir);
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
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));
