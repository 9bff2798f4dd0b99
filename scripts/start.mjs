// `npm start`: build, apply migrations to the local D1 in STATE_DIR, serve the production build
// through wrangler's local runtime on PORT (default 8787). SKIP_BUILD=1 reuses build/.
import { spawn } from "node:child_process";
import { env, migrate, root, run, stateDir } from "./lib.mjs";

await run("node", ["scripts/ensure-dev-vars.mjs"]);
if (process.env.SKIP_BUILD !== "1") await run("react-router", ["build"]);
const dir = stateDir();
await migrate(dir);
const port = process.env.PORT || "8787";
const args = ["dev", "--port", port, "--ip", "127.0.0.1", "--persist-to", dir, "--show-interactive-dev-session=false"];
if (process.env.INSPECTOR_PORT) args.push("--inspector-port", process.env.INSPECTOR_PORT);
for (const pair of (process.env.WRANGLER_VARS || "").split(",").filter(Boolean)) args.push("--var", pair);
const child = spawn("wrangler", args, { cwd: root, stdio: "inherit", env: env() });
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));
