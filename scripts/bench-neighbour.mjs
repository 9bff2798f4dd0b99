// `npm run bench:neighbour`: does the worst feed in the store hold the database for everyone?
// (issue 13: "show with the bench at 50 connections that the worst feed no longer moves other
// routes' p99"). On the store `npm run bench:data` built, one production server; for each victim
// route, back to back in the same time window:
//   alone      40 connections on the victim route
//   neighbour  the same 40 connections while 10 more connections read page 1 of the worst feed
// and prints the victim's p50/p99 in both runs and their ratio (1.0 = the neighbour costs nothing).
// The worst feed is the one `npm run bench:feeds` found reading the most rows (its report), or
// NEIGHBOUR_FEED; run the same script on an older build with the older worst feed to compare.
//
// Env: STATE_DIR (bench-state), BENCH_DURATION (s per run, default 15), BENCH_PORT (8813),
// NEIGHBOUR_FEED (a scroll id), NEIGHBOUR_REPORT (a bench-feeds report to take the worst from).
import autocannon from "autocannon";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildVerticals } from "./build.mjs";
import { root } from "./lib.mjs";
import { startServer } from "./server.mjs";

const dir = path.resolve(root, process.env.STATE_DIR || "bench-state");
const DURATION = Number(process.env.BENCH_DURATION || "15");
const PORT = Number(process.env.BENCH_PORT || "8813");
const VICTIM_CONNECTIONS = 40;
const NEIGHBOUR_CONNECTIONS = 10;

const meta = JSON.parse(readFileSync(path.join(dir, "bench-meta.json"), "utf8"));
if (!existsSync(path.join(root, "build", "echos", "server"))) await buildVerticals();

function worstFeed() {
  if (process.env.NEIGHBOUR_FEED) return { id: process.env.NEIGHBOUR_FEED, rows: null, rule: "(given)" };
  const file = path.resolve(root, process.env.NEIGHBOUR_REPORT || path.join(dir, "bench-feeds-report.json"));
  if (!existsSync(file)) throw new Error(`no bench-feeds report at ${file}: run npm run bench:feeds first, or set NEIGHBOUR_FEED`);
  const report = JSON.parse(readFileSync(file, "utf8"));
  const [worst] = report.worst;
  return { id: worst.id, rows: worst.rows, rule: worst.rule };
}

const feed = worstFeed();
const server = await startServer({ port: PORT, stateDir: dir, vars: { EXPOSE_D1_STATS: "1", AUTH_IP_LIMIT_PER_MINUTE: "1000000" } });
const base = server.baseUrl;
try {
  // a reader and the feed's creator-independent view: any signed-in user may read a public feed
  const login = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ userName: "bench10", password: meta.password }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = login.headers.get("set-cookie").split(";")[0];
  const headers = { Cookie: cookie };
  const feedPath = `/api/scroll/${feed.id}/echos?limit=20`;
  const probe = await fetch(base + feedPath, { headers });
  const stats = /rt=(\d+) rows=(\d+)/.exec(probe.headers.get("server-timing") ?? "");
  await probe.text();
  if (probe.status !== 200) throw new Error(`the worst feed answered ${probe.status}`);
  const feedRows = stats ? Number(stats[2]) : null;
  console.log(`neighbour: feed ${feed.id} (${feed.rule}), page 1 reads ${feedRows} rows now; ${NEIGHBOUR_CONNECTIONS} connections`);

  const victims = [
    { name: "GET /api/echo/all?limit=20", path: "/api/echo/all?limit=20" },
    { name: "GET /api/community/tags", path: "/api/community/tags" },
    { name: "GET /api/health (no D1)", path: "/api/health" },
  ];
  const cannon = (p, connections) => autocannon({ url: base + p, connections, duration: DURATION, headers, timeout: 60 });
  const results = [];
  for (const v of victims) {
    await autocannon({ url: base + v.path, connections: 10, duration: 2, headers }); // warm-up
    const alone = await cannon(v.path, VICTIM_CONNECTIONS);
    const [withNeighbour, neighbour] = await Promise.all([cannon(v.path, VICTIM_CONNECTIONS), cannon(feedPath, NEIGHBOUR_CONNECTIONS)]);
    const row = {
      victim: v.name,
      aloneP50: alone.latency.p50,
      aloneP99: alone.latency.p99,
      aloneRps: Math.round(alone.requests.average),
      withP50: withNeighbour.latency.p50,
      withP99: withNeighbour.latency.p99,
      withRps: Math.round(withNeighbour.requests.average),
      p99Ratio: Math.round((withNeighbour.latency.p99 / Math.max(1, alone.latency.p99)) * 100) / 100,
      neighbourRps: Math.round(neighbour.requests.average * 10) / 10,
      neighbourP99: neighbour.latency.p99,
      errors: alone.errors + alone.non2xx + withNeighbour.errors + withNeighbour.non2xx,
    };
    results.push(row);
    console.log(JSON.stringify(row));
  }
  console.log("\nvictim (40 conn)                     alone p50/p99 ms   + worst feed (10 conn) p50/p99 ms   p99 ×   feed req/s  feed p99 ms");
  for (const r of results) {
    console.log(
      `${r.victim.padEnd(36)} ${`${r.aloneP50}/${r.aloneP99}`.padStart(17)}   ${`${r.withP50}/${r.withP99}`.padStart(33)}   ${String(r.p99Ratio).padStart(5)}   ${String(r.neighbourRps).padStart(10)}  ${String(r.neighbourP99).padStart(11)}`,
    );
  }
  const out = path.join(dir, "bench-neighbour-report.json");
  writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), durationSeconds: DURATION, feed: { ...feed, rowsNow: feedRows }, results }, null, 2));
  console.log(`\nreport: ${out}`);
} finally {
  await server.stop();
}
