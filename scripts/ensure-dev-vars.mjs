// Local secrets: .dev.vars holds SESSION_SECRET for wrangler's local runtime. Generated once on
// first start (never committed); production uses `wrangler secret put SESSION_SECRET`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

const file = new URL("../.dev.vars", import.meta.url);
const current = existsSync(file) ? readFileSync(file, "utf8") : "";
if (!/^SESSION_SECRET=.{32,}$/m.test(current)) {
  const line = `SESSION_SECRET=${randomBytes(32).toString("hex")}\n`;
  writeFileSync(file, current + (current && !current.endsWith("\n") ? "\n" : "") + line);
  console.log("Generated .dev.vars with a new SESSION_SECRET");
}
