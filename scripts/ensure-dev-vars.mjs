// Local secrets: .dev.vars holds SESSION_SECRET for wrangler's local runtime. Generated once on
// first start (never committed); production uses `wrangler secret put SESSION_SECRET`.
// It also says LOCAL_RUNTIME=1: .dev.vars is read only by wrangler's local runtime (never
// deployed), so the router knows it is not on Cloudflare's edge and does not trust a client's
// CF-Connecting-IP (worker/security.ts clientIpHeaders). Added to an older file too.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

const file = new URL("../.dev.vars", import.meta.url);
const current = existsSync(file) ? readFileSync(file, "utf8") : "";
if (!/^SESSION_SECRET=.{32,}$/m.test(current)) {
  const line = `SESSION_SECRET=${randomBytes(32).toString("hex")}\n`;
  writeFileSync(file, current + (current && !current.endsWith("\n") ? "\n" : "") + line);
  console.log("Generated .dev.vars with a new SESSION_SECRET");
}

const now = readFileSync(file, "utf8");
if (!/^LOCAL_RUNTIME=1$/m.test(now)) {
  writeFileSync(file, now + (now && !now.endsWith("\n") ? "\n" : "") + "LOCAL_RUNTIME=1\n");
  console.log("Added LOCAL_RUNTIME=1 to .dev.vars");
}
