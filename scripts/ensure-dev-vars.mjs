// Local secrets: .dev.vars holds SESSION_SECRET for wrangler's local runtime. Generated once on
// first start (never committed: .gitignore's `.dev.vars` matches at any depth); production uses
// `wrangler secret put SESSION_SECRET`.
//
// wrangler and the Vite plugin read .dev.vars from beside the config they run. `npm start` runs
// the router's config (the repository root) and hands the secret to each vertical's config copy
// itself (scripts/start.mjs); `npm run dev` runs verticals/dev/wrangler.toml, so the same secret is
// written to verticals/dev/.dev.vars too (a fresh clone's dev server otherwise answered sign-up
// with 500 "SESSION_SECRET is missing"). Other lines of that file are kept.
//
// It also says LOCAL_RUNTIME=1: .dev.vars is read only by wrangler's local runtime (never
// deployed), so the router knows it is not on Cloudflare's edge and does not trust a client's
// CF-Connecting-IP (worker/security.ts clientIpHeaders). Added to an older file too.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

const SECRET = /^SESSION_SECRET=(.*)$/m;
const read = (file) => (existsSync(file) ? readFileSync(file, "utf8") : "");
const withLine = (text, line) => {
  if (SECRET.test(text)) return text.replace(SECRET, line);
  return text + (text && !text.endsWith("\n") ? "\n" : "") + `${line}\n`;
};
const withLocal = (text) => (/^LOCAL_RUNTIME=1$/m.test(text) ? text : text + (text && !text.endsWith("\n") ? "\n" : "") + "LOCAL_RUNTIME=1\n");

const rootFile = new URL("../.dev.vars", import.meta.url);
let current = read(rootFile);
if (!/^SESSION_SECRET=.{32,}$/m.test(current)) {
  current = withLine(current, `SESSION_SECRET=${randomBytes(32).toString("hex")}`);
  console.log("Generated .dev.vars with a new SESSION_SECRET");
}
current = withLocal(current);
if (current !== read(rootFile)) writeFileSync(rootFile, current);
const line = current.match(SECRET)[0];

const devFile = new URL("../verticals/dev/.dev.vars", import.meta.url);
const dev = read(devFile);
const wanted = withLocal(withLine(dev, line));
if (wanted !== dev) {
  writeFileSync(devFile, wanted);
  console.log("Wrote SESSION_SECRET to verticals/dev/.dev.vars (npm run dev's config)");
}
