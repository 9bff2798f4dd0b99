// `npm run bench:live`: how far one live object goes (decision 016). Opens LIVE_SOCKETS WebSockets
// on /api/live?all=1 (one "all" object: LIVE_ALL_SHARDS = 1), posts LIVE_POSTS echos,
// LIVE_CONCURRENCY at a time, and reports each delivery's latency (post sent → message received
// on a socket) at p50/p99, deliveries per second, and any socket that missed an echo.
// LIVE_URL measures a server already running; otherwise a fresh one is started on an empty store.
import WebSocket from "ws";
import { startServer } from "./server.mjs";

const SOCKETS = Number(process.env.LIVE_SOCKETS || "1000");
const POSTS = Number(process.env.LIVE_POSTS || "100");
const CONCURRENCY = Number(process.env.LIVE_CONCURRENCY || "4");
/** the per-author post limit is 100 per 5 minutes (docs/security.md): spread posts over authors */
const POSTS_PER_AUTHOR = 90;
/** the live handshake limit is 60 per minute per account (docs/security.md): spread sockets over readers */
const SOCKETS_PER_READER = 50;

const server = process.env.LIVE_URL ? null : await startServer({ vars: { AUTH_IP_LIMIT_PER_MINUTE: "1000000" } });
const base = process.env.LIVE_URL ?? server.baseUrl;

async function signup(prefix) {
  const userName = `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.slice(0, 30);
  const res = await fetch(`${base}/api/auth/signup`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ userName, password: "pass1234" }) });
  if (res.status !== 201) throw new Error(`signup: ${res.status} ${await res.text()}`);
  return res.headers.get("set-cookie").split(";")[0];
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

try {
  const readers = await Promise.all(Array.from({ length: Math.ceil(SOCKETS / SOCKETS_PER_READER) }, () => signup("lb")));
  const sentAt = new Map();
  const latencies = [];
  const received = new Array(SOCKETS).fill(0);
  const sockets = [];
  const openStart = performance.now();
  // open in waves of 100: thousands of simultaneous handshakes only measure the local proxy
  for (let i = 0; i < SOCKETS; i += 100) {
    const wave = [];
    for (let j = i; j < Math.min(SOCKETS, i + 100); j++) {
      const ws = new WebSocket(`${base.replace(/^http/, "ws")}/api/live?all=1`, { headers: { Cookie: readers[Math.floor(j / SOCKETS_PER_READER)] } });
      ws.on("message", (data) => {
        const { echo } = JSON.parse(String(data));
        const t = sentAt.get(echo._id) ?? sentAt.get(echo.content);
        if (t === undefined) return;
        latencies.push(performance.now() - t);
        received[j]++;
      });
      sockets.push(ws);
      wave.push(new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject))));
    }
    await Promise.all(wave);
  }
  const openMs = performance.now() - openStart;
  console.log(`${SOCKETS} sockets open in ${(openMs / 1000).toFixed(1)} s`);

  const authors = await Promise.all(Array.from({ length: Math.ceil(POSTS / POSTS_PER_AUTHOR) }, () => signup("lp")));
  let next = 0;
  const postStart = performance.now();
  const poster = async () => {
    while (next < POSTS) {
      const n = next++;
      const content = `bench live ${n} ${Math.random().toString(36).slice(2)}`;
      sentAt.set(content, performance.now());
      const res = await fetch(`${base}/api/echo/post`, {
        method: "POST",
        headers: { Cookie: authors[Math.floor(n / POSTS_PER_AUTHOR)], "Content-Type": "application/json" },
        body: JSON.stringify({ content, tags: ["benchlive"] }),
      });
      if (res.status !== 201) throw new Error(`post: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, poster));
  // every delivery, or 30 s after the last post
  const expected = SOCKETS * POSTS;
  const deadline = performance.now() + 30_000;
  while (latencies.length < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const seconds = (performance.now() - postStart) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  const missing = received.filter((n) => n < POSTS).length;
  const report = {
    sockets: SOCKETS,
    posts: POSTS,
    postsPerSecond: Number((POSTS / seconds).toFixed(1)),
    deliveries: latencies.length,
    expected,
    deliveriesPerSecond: Math.round(latencies.length / seconds),
    latencyMs: { p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), max: Math.round(sorted.at(-1) ?? 0) },
    socketsMissingSome: missing,
  };
  console.log(JSON.stringify(report, null, 2));
  for (const ws of sockets) ws.close();
} finally {
  await server?.stop();
}
