// `npm run dev`: the local secret beside the dev config (ensure-dev-vars), migrations on the local
// D1 in STATE_DIR, then the Vite dev server (`react-router dev`, arguments passed on:
// `npm run dev -- --port 5174`) with the project's environment (lib.mjs env: local traces off
// unless LOCAL_TRACES=1).
import { spawn } from "node:child_process";
import { env, migrate, root, run } from "./lib.mjs";

await run("node", ["scripts/ensure-dev-vars.mjs"]);
await migrate();
const child = spawn("react-router", ["dev", ...process.argv.slice(2)], { cwd: root, stdio: "inherit", env: env() });
const stop = (signal) => child.kill(signal);
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
