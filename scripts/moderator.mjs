// `npm run moderator -- <userName> [--remove] [--remote]`: make an account a moderator (or take the
// role away), decision 029. The role is users.is_admin; the session check reads it on every
// request, so it applies at the account's next request, with no new sign-in.
// Local store by default (STATE_DIR, default .wrangler/state); --remote runs the same statement
// against the deployed D1 through wrangler (needs `wrangler login`).
import { spawnSync } from "node:child_process";
import { bin, env, root, stateDir } from "./lib.mjs";
import path from "node:path";

const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith("--"));
const remove = args.includes("--remove");
const remote = args.includes("--remote");
// the name goes into SQL text: only what a user name can hold (modules/shared/user-names.ts)
if (!name || !/^[A-Za-z0-9_.-]{1,30}$/.test(name)) {
  console.error("usage: npm run moderator -- <userName> [--remove] [--remote]");
  process.exit(2);
}
const sql = `UPDATE users SET is_admin = ${remove ? 0 : 1} WHERE user_name = '${name}' COLLATE NOCASE RETURNING user_name`;
const where = remote ? ["--remote"] : ["--local", "--persist-to", stateDir()];
const execute = () =>
  spawnSync(
    path.join(bin, "wrangler"),
    ["d1", "execute", "DB", ...where, "-c", "verticals/echos/wrangler.toml", "--json", "--command", sql],
    { cwd: root, env: env({ CI: "true" }), encoding: "utf8" },
  );
// The local store is one SQLite file a running server writes too (its queue consumer, crons): this
// process's write can meet the server's lock ("database is locked: SQLITE_BUSY" — an e2e run at
// load ~10 did). The statement is one idempotent UPDATE, so it is tried again, a little later each time.
const locked = (r) => r.status !== 0 && /SQLITE_BUSY|database is locked/.test(`${r.stderr}${r.stdout}`);
let result = execute();
for (let attempt = 1; !remote && locked(result) && attempt <= 8; attempt++) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250 * attempt);
  result = execute();
}
if (result.status !== 0) {
  console.error(result.stderr || result.stdout);
  process.exit(1);
}
// local D1 reports no `changes`: the RETURNING rows say whether an account matched
const changed = JSON.parse(result.stdout)?.[0]?.results ?? [];
if (changed.length === 0) {
  console.error(`No account named "${name}"`);
  process.exit(1);
}
console.log(`${name} is ${remove ? "no longer a moderator" : "a moderator"}${remote ? " (remote)" : ""}`);
