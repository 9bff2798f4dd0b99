// `npm run deploy`: build and ship every vertical Worker, then the router Worker that binds them
// (a service binding needs its Worker to exist). `npm run check:deploy` (--dry-run) bundles each
// without uploading and prints each bundle's size. Names limit it to those Workers:
//   node scripts/deploy.mjs scrolls          ship the scrolls vertical alone
//   node scripts/deploy.mjs --dry-run router check the router alone
// SKIP_BUILD=1 reuses build/.
import { spawn } from "node:child_process";
import { env, root } from "./lib.mjs";
import { VERTICALS, buildVerticals, builtConfig } from "./build.mjs";

const dryRun = process.argv.includes("--dry-run");
const named = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const workers = named.length ? named : [...VERTICALS, "router"];
for (const name of workers) if (name !== "router" && !VERTICALS.includes(name)) throw new Error(`no Worker "${name}" (router, ${VERTICALS.join(", ")})`);
const verticals = workers.filter((w) => w !== "router");
if (process.env.SKIP_BUILD !== "1" && verticals.length) await buildVerticals(verticals);

/** Run wrangler, echo its output, and return it (the size line is read from it). */
function wrangler(args) {
  return new Promise((resolve, reject) => {
    const child = spawn("wrangler", args, { cwd: root, env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    for (const stream of [child.stdout, child.stderr]) stream.on("data", (d) => ((out += d), process.stdout.write(d)));
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`wrangler ${args.join(" ")} failed (${code})`))));
  });
}

const sizes = [];
for (const name of workers) {
  const config = name === "router" ? "wrangler.toml" : builtConfig(name);
  console.log(`\n--- ${dryRun ? "dry-run deploy" : "deploy"}: ${name} (${config})`);
  const out = await wrangler(["deploy", "-c", config, ...(dryRun ? ["--dry-run"] : [])]);
  const upload = /Total Upload: ([\d.]+ KiB) \/ gzip: ([\d.]+ KiB)/.exec(out);
  sizes.push({ worker: name, upload: upload?.[1] ?? "?", gzip: upload?.[2] ?? "?" });
}
console.log("\nbundle sizes (wrangler's Total Upload):");
for (const s of sizes) console.log(`  ${s.worker.padEnd(10)} ${s.upload.padStart(12)}  gzip ${s.gzip.padStart(12)}`);
