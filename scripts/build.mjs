// `npm run build`: one React Router build per vertical (docs/decisions/011), each into
// build/<vertical>/ with its client assets under /_v/<vertical>/. `node scripts/build.mjs echos`
// builds only the named ones (deploying one vertical needs only its own build).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./lib.mjs";
import { VERTICALS } from "../modules/verticals/index.ts";

export { VERTICALS };

export async function buildVerticals(names = VERTICALS) {
  for (const name of names) {
    if (!VERTICALS.includes(name)) throw new Error(`no vertical "${name}" (one of ${VERTICALS.join(", ")})`);
    console.log(`\n--- build: ${name}`);
    // one at a time: each build already keeps the machine's cores busy
    await run("react-router", ["build"], { env: { VERTICAL: name } });
  }
}

/** The wrangler config a vertical's build writes (the Worker with its assets). */
export const builtConfig = (name) => path.join("build", name, "server", "wrangler.json");

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildVerticals(process.argv.length > 2 ? process.argv.slice(2) : VERTICALS);
}
