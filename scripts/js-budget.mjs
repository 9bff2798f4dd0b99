// Client JavaScript budgets (issue 6), computed from each vertical's production build manifest
// (build/<vertical>/client); no server needed. A vertical's initial JS = the static import
// closure of its client entry, the manifest, root and, where the vertical has them,
// pages/app-layout and pages/home (dynamic import() is not initial JS): for the echos vertical,
// which serves `/`, that is the home route's initial JS. Every other route's own JS = its static
// closure minus that. Each vertical's first page is a document load, so each is held to both.
// Sizes of a build are deterministic, so `npm test` checks them (run after the build step):
//   node scripts/js-budget.mjs   prints the sizes and exits 1 on a miss
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { root } from "./lib.mjs";
import { VERTICALS } from "../modules/verticals/index.ts";

export const JS_BUDGET = { homeKbGzip: 125, routeKbGzip: 15 };
const HOME_CHAIN = ["root", "pages/app-layout", "pages/home"];
/** The vertical that serves `/` (modules/verticals). */
export const HOME_VERTICAL = "echos";

export function jsBudget(vertical = HOME_VERTICAL, clientDir = path.join(root, "build", vertical, "client")) {
  const assets = path.join(clientDir, "assets");
  const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
  if (!manifestFile) throw new Error(`no React Router manifest in ${assets}: build first`);
  const text = readFileSync(path.join(assets, manifestFile), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
  const gz = new Map();
  // the manifest names files by URL (/_v/<vertical>/assets/x.js); on disk they sit in assets/
  const file = (url) => url.replace(/^\/_v\/[^/]+\//, "/");
  const size = (f) => {
    if (!gz.has(f)) gz.set(f, gzipSync(readFileSync(path.join(clientDir, f))).length);
    return gz.get(f);
  };
  // the static import closure of a set of chunks (dynamic import() is not initial JS)
  const closure = (files) => {
    const seen = new Set();
    const stack = [...files];
    while (stack.length) {
      const f = stack.pop();
      if (seen.has(f)) continue;
      seen.add(f);
      const src = readFileSync(path.join(clientDir, f), "utf8");
      for (const m of src.matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g)) stack.push(path.posix.join(path.posix.dirname(f), m[1]));
    }
    return seen;
  };
  const routeFiles = (id) => [manifest.routes[id].module, ...(manifest.routes[id].imports ?? [])].map(file);
  const chain = HOME_CHAIN.filter((id) => manifest.routes[id]);
  const entry = [manifest.entry.module, ...manifest.entry.imports].map(file);
  const home = closure([...entry, `/assets/${manifestFile}`].concat(...chain.map(routeFiles)));
  const kb = (files) => [...files].reduce((n, f) => n + size(f), 0) / 1024;
  const routes = [];
  for (const [id, r] of Object.entries(manifest.routes)) {
    if (!r.hasDefaultExport || chain.includes(id)) continue;
    const own = [...closure(routeFiles(id))].filter((f) => !home.has(f));
    routes.push({ route: id, ownKbGzip: Number(kb(own).toFixed(1)), files: own.length });
  }
  routes.sort((a, b) => b.ownKbGzip - a.ownKbGzip);
  const homeFiles = [...home].sort((a, b) => size(b) - size(a)).map((f) => `${f} ${(size(f) / 1024).toFixed(1)} KB`);
  // the verdict compares bytes, not the rounded figure: 125.04 KB is over a 125 KB budget
  const homeBytes = [...home].reduce((n, f) => n + size(f), 0);
  return { vertical, homeKbGzip: Number(kb(home).toFixed(1)), homeBytes, homeFiles, routes };
}

/** The budget verdicts of one vertical's build: [{ name, ok, detail }]. */
export function jsVerdicts(js) {
  const big = js.routes[0];
  const initial = js.vertical === HOME_VERTICAL ? "home initial JS" : `${js.vertical} initial JS`;
  return [
    {
      name: `${initial} ≤ ${JS_BUDGET.homeKbGzip} KB gzip`,
      ok: js.homeBytes <= JS_BUDGET.homeKbGzip * 1024,
      detail: `${js.homeKbGzip} KB (${js.homeBytes.toLocaleString("en")} of ${(JS_BUDGET.homeKbGzip * 1024).toLocaleString("en")} bytes)`,
    },
    {
      name: `every other ${js.vertical} route's own JS ≤ ${JS_BUDGET.routeKbGzip} KB gzip`,
      ok: !big || big.ownKbGzip <= JS_BUDGET.routeKbGzip,
      detail: big ? `largest ${big.route} ${big.ownKbGzip} KB` : "-",
    },
  ];
}

/** Every vertical's verdicts (the builds of `npm run build`). */
export const allVerdicts = () => VERTICALS.flatMap((vertical) => jsVerdicts(jsBudget(vertical)));

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let missed = false;
  for (const vertical of VERTICALS) {
    const js = jsBudget(vertical);
    console.log(`\n${vertical} initial JS: ${js.homeKbGzip} KB gzip`);
    for (const f of js.homeFiles) console.log(`  ${f}`);
    console.log("largest other routes (own JS, gzip):");
    for (const r of js.routes.slice(0, 5)) console.log(`  ${r.route} ${r.ownKbGzip} KB (${r.files} files)`);
    const verdicts = jsVerdicts(js);
    for (const v of verdicts) console.log(`${v.ok ? "met " : "MISS"} ${v.name}: ${v.detail}`);
    missed ||= verdicts.some((v) => !v.ok);
  }
  if (missed) process.exit(1);
}
