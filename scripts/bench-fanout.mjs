// `npm run bench:fanout`: the write cost of the Following timeline's fan-out (issue 18,
// docs/decisions/013-following-timeline.md). On a fresh store: an author with FANOUT_FOLLOWERS
// followers (default 50,000) and one with none post, delete, and are followed; for each request
// the D1 round trips, rows read and written (Server-Timing) and the wall time on the local runtime.
// The followers are written straight into the D1 SQLite file (node:sqlite) with the server stopped.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { startServer } from "./server.mjs";

const FOLLOWERS = Number(process.env.FANOUT_FOLLOWERS || "50000");
const POSTS = 5;
const dir = mkdtempSync(path.join(os.tmpdir(), "echo-fanout-"));
const vars = { EXPOSE_D1_STATS: "1", AUTH_IP_LIMIT_PER_MINUTE: "1000000" };
// FANOUT_PORT: a fixed port for the server (a machine shared with other servers); else a free one
const port = process.env.FANOUT_PORT ? Number(process.env.FANOUT_PORT) : undefined;

async function call(base, cookie, method, p, body) {
  const t = performance.now();
  const res = await fetch(base + p, {
    method,
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const ms = performance.now() - t;
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  const m = /rt=(\d+) rows=(\d+) written=(\d+)/.exec(res.headers.get("server-timing") ?? "");
  return { json, cookie: res.headers.get("set-cookie")?.split(";")[0], ms: Math.round(ms), rt: Number(m?.[1]), read: Number(m?.[2]), written: Number(m?.[3]) };
}
const signup = async (base, userName) => (await call(base, null, "POST", "/api/auth/signup", { userName, password: "pass1234" }));

try {
  // 1. the two authors and a reader, through the API (real password hashes, real sessions)
  let server = await startServer({ stateDir: dir, vars, port });
  const popular = await signup(server.baseUrl, "fanoutpopular");
  const lonely = await signup(server.baseUrl, "fanoutlonely");
  const reader = await signup(server.baseUrl, "fanoutreader");
  await server.stop();

  // 2. the followers, straight into the store (the counter triggers keep followers_count exact)
  const d1dir = path.join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(d1dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  const db = new DatabaseSync(path.join(d1dir, file));
  db.exec("BEGIN");
  const user = db.prepare("INSERT INTO users (id, user_name, password_hash, created_at) VALUES (?, ?, 'x', ?)");
  const follow = db.prepare("INSERT INTO user_follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)");
  for (let i = 0; i < FOLLOWERS; i++) {
    const id = `0000000000follower${String(i).padStart(8, "0")}`;
    user.run(id, `follower${i}`, Date.now());
    follow.run(id, popular.json._id, Date.now());
  }
  db.exec("COMMIT");
  db.close();

  // 3. the measurements, on the restarted server
  server = await startServer({ stateDir: dir, vars, port });
  const base = server.baseUrl;
  const rows = [];
  const measure = async (what, who, method, p, body) => {
    const r = await call(base, who.cookie, method, p, body);
    rows.push({ what, ms: r.ms, roundTrips: r.rt, rowsRead: r.read, rowsWritten: r.written });
    return r;
  };
  const ids = [];
  for (let i = 0; i < POSTS; i++) ids.push((await measure(`post, ${FOLLOWERS} followers`, popular, "POST", "/api/echo/post", { content: `fan-out ${i}`, tags: ["fanout"] })).json.echo._id);
  for (let i = 0; i < POSTS; i++) await measure("post, no followers", lonely, "POST", "/api/echo/post", { content: `alone ${i}`, tags: ["fanout"] });
  await measure(`delete an echo, ${FOLLOWERS} followers`, popular, "DELETE", `/api/echo/delete/${ids[0]}`);
  await measure("follow (backfill + trim)", reader, "POST", `/api/profile/user/${popular.json._id}/follow`);
  await measure("Following timeline page 1", reader, "GET", "/api/echo/following?limit=20");
  await measure("unfollow (removal)", reader, "DELETE", `/api/profile/user/${popular.json._id}/follow`);
  // the author's account goes (decision 032): the request marks it, the change stream removes its
  // follows (and the rest) a slice a step. The reader follows it again: its id sorts after the
  // bench's followers, so its following count reaching 0 says the stream got through them all
  await measure("follow again", reader, "POST", `/api/profile/user/${popular.json._id}/follow`);
  const started = performance.now();
  await measure(`delete the account, ${FOLLOWERS} followers`, popular, "DELETE", "/api/profile/me", { password: "pass1234" });
  let drained = null;
  while (performance.now() - started < 15 * 60_000) {
    const me = await call(base, reader.cookie, "GET", `/api/profile/user/${reader.json._id}`);
    if (me.json.followingCount === 0) {
      drained = Math.round(performance.now() - started);
      break;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  rows.push({ what: `account removal drained (${FOLLOWERS} follows)`, ms: drained ?? -1, roundTrips: 0, rowsRead: 0, rowsWritten: 0 });
  await server.stop();

  const summary = {};
  for (const r of rows) {
    const s = (summary[r.what] ??= { n: 0, msMedian: 0, ms: [], roundTrips: r.roundTrips, rowsRead: r.rowsRead, rowsWritten: r.rowsWritten });
    s.n++;
    s.ms.push(r.ms);
  }
  for (const s of Object.values(summary)) s.msMedian = [...s.ms].sort((a, b) => a - b)[Math.floor(s.ms.length / 2)];
  console.log(`fan-out on the local runtime (${FOLLOWERS} followers):`);
  for (const [what, s] of Object.entries(summary)) {
    console.log(`  ${what.padEnd(36)} median ${String(s.msMedian).padStart(6)} ms (${s.ms.join(", ")})  rt ${s.roundTrips}  read ${s.rowsRead}  written ${s.rowsWritten}`);
  }
  writeFileSync(path.join(os.tmpdir(), "echo-fanout-report.json"), JSON.stringify({ followers: FOLLOWERS, rows, summary }, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
