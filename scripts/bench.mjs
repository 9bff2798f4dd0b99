// `npm run bench`: throughput, latency and D1 cost per request on the benchmark store (issue 6).
// Starts the production build on the store `npm run bench:data` built (STATE_DIR, default
// bench-state/) with EXPOSE_D1_STATS=1, signs in a varied set of bench users, and for each
// scenario: samples a few requests for the Server-Timing header (D1 round trips, rows read and
// written), warms up, then runs autocannon for a fixed time with cookies rotated across users.
// Prints a table (throughput as a ratio of the constant route /api/health, measured right before
// and after each scenario at the same connection count: C S C, so both figures share a time
// window on this noisy machine) and the issue's budgets, and writes the JSON report to <STATE_DIR>/bench-report.json.
// (Over 300 lines: the scenarios, their load and the report are one sequence over one server;
// the conversation's measures, issue 31, are scripts/bench-conversation.mjs.)
//
// Env: BENCH_DURATION (s per scenario, default 10), BENCH_CONNECTIONS (default 10),
// BENCH_ONLY (substring filter on scenario names; "conversation": the conversation part alone,
// scripts/bench-conversation.mjs, no throughput scenario), BENCH_PORT (default 8811),
// BENCH_CONVERSATION_SAMPLE (echos each conversation write is measured on, default 50),
// BENCH_CONSTANT_SLICE (s of the constant route before and after each scenario, default DURATION/4).
import autocannon from "autocannon";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { jsBudget, jsVerdicts } from "./js-budget.mjs";
import { buildVerticals } from "./build.mjs";
import { root } from "./lib.mjs";
import { startServer } from "./server.mjs";
import { conversationBudgets, drawConversation, measureConversation, measureThreads, printConversation } from "./bench-conversation.mjs";

const dir = path.resolve(root, process.env.STATE_DIR || "bench-state");
const DURATION = Number(process.env.BENCH_DURATION || "10");
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || "10");
const ONLY = process.env.BENCH_ONLY || "";
/** Only the conversation's measures (issue 31): no throughput scenario, no page action. */
const CONVERSATION_ONLY = ONLY === "conversation";
const PORT = Number(process.env.BENCH_PORT || "8811");
const SAMPLES = 5;
/** Seconds of the constant route measured before and after each scenario (its ratio's window). */
const CONSTANT_SLICE = Number(process.env.BENCH_CONSTANT_SLICE || String(Math.max(2, Math.round(DURATION / 4))));
const BUDGET = { roundTrips: 2, rowsPerPage: 200, allEchosRatio: 0.35, homeRatio: 0.35, homeP99Factor: 10 };

const metaFile = path.join(dir, "bench-meta.json");
if (!existsSync(metaFile)) throw new Error(`no benchmark store at ${dir}: run npm run bench:data first`);
const meta = JSON.parse(readFileSync(metaFile, "utf8"));
if (!existsSync(path.join(root, "build", "echos", "server"))) await buildVerticals();

// ── client JS budget, from the build (no server needed) ──────────────────────────────────────
const js = jsBudget();

// ── feeds served by their index (decision 020): the sparsest public feed of each order whose
// index is built, picked from the store before the server starts ─────────────────────────────
const sparseFeeds = {};
let drawn = null;
{
  const d1Dir = path.join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(d1Dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  const store = new DatabaseSync(path.join(d1Dir, file), { readOnly: true });
  const hasIndexes = store.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'feed_indexes'").get().n > 0;
  if (hasIndexes) {
    for (const [label, sortBy, range] of [
      ["sparse, newest", "newestFirst", "allTime"],
      ["sparse, oldest", "oldestFirst", "allTime"],
      ["most liked today", "mostLiked", "1day"],
    ]) {
      const row = store
        .prepare(
          `SELECT s.id FROM scrolls s JOIN feed_indexes fi ON fi.rule_key = s.rule_key AND fi.state = 'ready'
           WHERE s.type = 'feed' AND s.is_private = 0 AND s.sort_by = ? AND s.sort_time_range = ? AND s.exclude_liked_echos = 0
           ORDER BY fi.cap DESC, fi.complete ASC, s.id LIMIT 1`,
        )
        .get(sortBy, range);
      if (row) sparseFeeds[`feed index: ${label}`] = row.id;
    }
  }
  // threads, replies, quotes, reposts and edits (issue 31): drawn here, measured below
  drawn = drawConversation(store);
  store.close();
}

// ── server, users ────────────────────────────────────────────────────────────────────────────
console.log(`bench: store ${path.relative(root, dir)} (${JSON.stringify(meta.counts)}), ${DURATION}s per scenario, ${CONNECTIONS} connections`);
const server = await startServer({ port: PORT, stateDir: dir, vars: { EXPOSE_D1_STATS: "1", AUTH_IP_LIMIT_PER_MINUTE: "1000000" } });
const base = server.baseUrl;
const report = { startedAt: new Date().toISOString(), store: { counts: meta.counts, scale: meta.scale, sizeMb: meta.sizeMb, buildSeconds: meta.buildSeconds }, durationSeconds: DURATION, connections: CONNECTIONS, scenarios: [], actions: [], js };

async function login(userName) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ userName, password: meta.password }),
  });
  if (!res.ok) throw new Error(`login ${userName}: ${res.status} ${await res.text()}`);
  const user = await res.json();
  return { userName, id: user._id, cookie: res.headers.get("set-cookie").split(";")[0] };
}

/** GET (or other) with a cookie; returns the D1 stats from Server-Timing and the body. */
async function probe(cookie, p, method = "GET", body) {
  const started = performance.now();
  const res = await fetch(base + p, {
    method,
    headers: { Cookie: cookie, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    redirect: "manual",
  });
  const m = /rt=(\d+) rows=(\d+)(?: written=(\d+))?/.exec(res.headers.get("server-timing") ?? "");
  const text = await res.text();
  const ms = performance.now() - started;
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // HTML
  }
  return { status: res.status, ms, rt: m ? Number(m[1]) : null, rows: m ? Number(m[2]) : null, written: m ? Number(m[3] ?? 0) : null, json, bytes: text.length };
}

const stop = async () => {
  await server.stop();
};
process.on("SIGINT", async () => {
  await stop();
  process.exit(130);
});

try {
  // 20 readers (bench10…bench29), 40 writers (bench100…bench139: the post and like rate limits
  // are per user), the heavy liker for hide-liked.
  const t = Date.now();
  const signIn = async (names) => {
    const out = [];
    for (let i = 0; i < names.length; i += 4) out.push(...(await Promise.all(names.slice(i, i + 4).map(login))));
    return out;
  };
  const maxUser = meta.users - 1;
  const readers = await signIn(Array.from({ length: 20 }, (_, i) => `bench${Math.min(maxUser, 10 + i)}`));
  const writers = await signIn(Array.from({ length: 40 }, (_, i) => `bench${Math.min(maxUser, 100 + i)}`));
  const [heavy] = await signIn([meta.heavyLiker.name]);
  // the Following timeline's readers (scripts/bench-following.mjs): 5,000 follows, 5 near-silent ones
  const [wide, quiet] = meta.following ? await signIn([meta.following.wideFollower.name, meta.following.quietFollower.name]) : [];
  console.log(`signed in ${readers.length + writers.length + 1} users in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  // the ranking cron once, as production runs it every 5 minutes: KV holds the community lists
  const cron = await fetch(`${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
  if (!cron.ok) throw new Error(`scheduled trigger failed: ${cron.status}`);

  // D1 cost of single user actions (docs/scaling.md): one request each, Server-Timing
  const me = readers[0];
  const other = readers[1];
  const action = async (name, p, method, body) => {
    const r = await probe(me.cookie, p, method, body);
    report.actions.push({ action: name, status: r.status, roundTrips: r.rt, rowsRead: r.rows, rowsWritten: r.written });
    return r;
  };
  const posted = await action("post an echo (2 tags)", "/api/echo/post", "POST", { content: "bench action", tags: [meta.hotTag.name, "tag2"] });
  const postedId = posted.json?._id ?? posted.json?.echo?._id;
  await action("like", `/api/echo/like/${postedId}`, "POST");
  await action("unlike", `/api/echo/like/${postedId}`, "DELETE");
  await action("follow a user", `/api/profile/user/${other.id}/follow`, "POST");
  await action("unfollow a user", `/api/profile/user/${other.id}/follow`, "DELETE");
  if (wide) {
    // the writes that walk a timeline, on one at the cap (decision 013): the follow's trim, the unfollow
    const act = async (name, p, method) => {
      const r = await probe(wide.cookie, p, method);
      report.actions.push({ action: name, status: r.status, roundTrips: r.rt, rowsRead: r.rows, rowsWritten: r.written });
    };
    await act("follow a user (timeline at the cap)", `/api/profile/user/${other.id}/follow`, "POST");
    await act("unfollow a user (timeline at the cap)", `/api/profile/user/${other.id}/follow`, "DELETE");
  }
  await action("follow a scroll", `/api/scroll/${meta.scrolls["curation: 40 echos"]}/follow`, "POST");
  await action("unfollow a scroll", `/api/scroll/${meta.scrolls["curation: 40 echos"]}/follow`, "DELETE");
  await action("delete an echo", `/api/echo/delete/${postedId}`, "DELETE");
  // threads and the conversation over the population (issue 31): scripts/bench-conversation.mjs
  if (meta.threads && drawn) {
    report.threads = await measureThreads({ probe, action, me, meta, drawn });
    report.conversation = await measureConversation({ probe, login, me, writers, meta, drawn });
  }
  // the pages and lists, the cursor walks and the throughput scenarios: not with BENCH_ONLY=conversation
  const pagePaths = CONVERSATION_ONLY ? [] : ["/", `/scroll/${meta.scrolls["feed: any of 1 hot tag, newest"]}`, "/profile", `/user/${meta.topAuthor.id}`, "/community", `/tag/${meta.hotTag.name}`, `/echo/${meta.mostLikedEcho.id}`, "/scrolls", "/api/auth/me", "/api/scroll/all", "/api/community/tags?limit=8", "/api/community/echos/popular?limit=10"];
  for (const p of pagePaths) {
    await action(`GET ${p}`, p, "GET");
  }

  // page 50 of /api/echo/all through the cursor chain
  let cursor = null;
  for (let page = 1; page < 50 && !CONVERSATION_ONLY; page++) {
    const r = await probe(readers[0].cookie, `/api/echo/all?limit=20&page=${page}${cursor ? `&cursor=${cursor}` : ""}`);
    cursor = r.json.pagination.nextCursor;
  }
  const page50 = `/api/echo/all?limit=20&page=50&cursor=${cursor}`;

  // page 10 of the 5,000-follow reader's Following timeline through the cursor chain
  let followingPage10 = null;
  if (wide && !CONVERSATION_ONLY) {
    let c = null;
    for (let page = 1; page < 10 && (page === 1 || c); page++) {
      const r = await probe(wide.cookie, `/api/echo/following?limit=20&page=${page}${c ? `&cursor=${c}` : ""}`);
      c = r.json.pagination.nextCursor;
    }
    if (c) followingPage10 = `/api/echo/following?limit=20&page=10&cursor=${c}`;
  }
  const F = meta.following;
  const followingScenarios = wide
    ? [
        { name: `Following timeline (${F.wideFollower.follows} follows) page 1`, path: "/api/echo/following?limit=20", page: true, users: [wide] },
        ...(followingPage10 ? [{ name: "Following timeline page 10 (cursor)", path: followingPage10, page: true, users: [wide] }] : []),
        { name: `Following timeline (${F.quietFollower.follows} near-silent, old)`, path: "/api/echo/following?limit=20", page: true, users: [quiet] },
        { name: `SSR home / (Following, ${F.wideFollower.follows} follows)`, path: "/", html: true, users: [wide] },
      ]
    : [];

  const hot = meta.hotTag.name;
  const cold = meta.coldTag.name;
  const S = meta.scrolls;
  const scenarios = [
    { name: "constant /api/health", path: "/api/health", constant: true },
    // the router Worker answers this itself (no vertical has the prefix): the cost of the hop
    // every request pays, against the constant route's router + vertical
    { name: "router alone (404: unknown asset prefix)", path: "/_v/none/x", expectStatus: 404 },
    { name: "/api/echo/all page 1", path: "/api/echo/all?limit=20", page: true, budget: "allEchos" },
    { name: "/api/echo/all page 50 (cursor)", path: page50, page: true },
    ...["newest", "oldest", "likes"].flatMap((o) => [
      { name: `tag ${hot} (hot, ${meta.hotTag.echo_count}) ${o}`, path: `/api/echo/tag/${hot}?limit=20&orderBy=${o}`, page: true },
      { name: `tag ${cold} (cold, ${meta.coldTag.echo_count}) ${o}`, path: `/api/echo/tag/${cold}?limit=20&orderBy=${o}`, page: true },
    ]),
    ...Object.entries({ ...S, ...sparseFeeds }).map(([label, id]) => ({
      name: `scroll ${label}`,
      path: `/api/scroll/${id}/echos?limit=20`,
      page: true,
      users: label.includes("hide-liked") ? [heavy] : undefined,
    })),
    // echo search (issue 18): a word about 14% of the echos hold, and a tag on a handful
    { name: "search echos: common word (coffee)", path: "/api/search/echos?q=coffee", page: true },
    { name: `search echos: rare term (#${cold})`, path: `/api/search/echos?q=%23${cold}`, page: true },
    ...followingScenarios,
    ...(meta.threads ? [{ name: `thread of ${meta.threads.big.replies} replies`, path: `/api/echo/${meta.threads.big.id}/thread` }] : []),
    ...(meta.threads ? [{ name: `SSR echo page (${meta.threads.big.replies} replies)`, path: `/echo/${meta.threads.big.id}`, html: true }] : []),
    { name: "SSR home /", path: "/", html: true, budget: "home" },
    { name: "SSR scroll page", path: `/scroll/${S["feed: any of 1 hot tag, newest"]}`, html: true },
    { name: "constant /api/health @50", path: "/api/health", connections: 50, constant50: true },
    { name: "SSR home / @50", path: "/", html: true, connections: 50, home50: true },
    { name: "like + unlike (POST/DELETE)", write: "like", users: writers },
    { name: "post echo", write: "post", users: writers },
  ].filter((s) => !CONVERSATION_ONLY && (!ONLY || s.constant || s.constant50 || s.expectStatus || s.name.includes(ONLY)));

  const likeTargets = meta.sampleEchoIds;

  /**
   * Every 250 ms during `ms`, a reader posts an echo on the hot tag and a probe tag, and polls the
   * first page of a feed of the probe tag (created now, its index built) until the echo shows.
   */
  async function freshnessProbe(ms) {
    const probeTag = `fresh${Date.now().toString(36)}`;
    const owner = readers[0];
    const created = await probe(owner.cookie, "/api/scroll/create", "POST", { name: "freshness probe", type: "feed", feedConfig: { includedTags: [probeTag] } });
    const feedId = created.json?.scroll?._id ?? created.json?._id;
    if (!feedId) throw new Error(`freshness probe: feed not created (${created.status})`);
    for (let t = Date.now(); Date.now() - t < 30_000; ) {
      if ((await probe(owner.cookie, `/api/scroll/${feedId}/echos?limit=20`)).json?.feedIndex === "ready") break;
      await new Promise((res) => setTimeout(res, 200));
    }
    const delays = [];
    const missed = [];
    const probes = [];
    const end = Date.now() + ms;
    for (let i = 0; Date.now() < end; i++) {
      const who = readers[1 + (i % (readers.length - 1))];
      probes.push(
        (async () => {
          const t0 = Date.now();
          const posted = await probe(who.cookie, "/api/echo/post", "POST", { content: `freshness ${i}`, tags: [hot, probeTag] });
          const id = posted.json?.echo?._id ?? posted.json?._id;
          if (!id) return missed.push(`post ${posted.status}`);
          for (;;) {
            const page = await probe(owner.cookie, `/api/scroll/${feedId}/echos?limit=20`);
            if (page.json?.echos?.some((e) => e._id === id)) return delays.push(Date.now() - t0);
            if (Date.now() - t0 > 60_000) return missed.push(id);
            await new Promise((res) => setTimeout(res, 100));
          }
        })(),
      );
      await new Promise((res) => setTimeout(res, 250));
    }
    await Promise.all(probes);
    const sorted = [...delays].sort((a, b) => a - b);
    const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? null;
    return { probes: probes.length, seen: delays.length, missed, p50: q(0.5), p99: q(0.99), max: sorted[sorted.length - 1] ?? null };
  }
  let seq = 0;
  const postBody = () => JSON.stringify({ content: `bench post ${seq++} under load`, tags: [hot, `tag${2 + (seq % 50)}`] });

  for (const sc of scenarios) {
    const users = sc.users ?? readers;
    // D1 cost: a few sampled requests, read from Server-Timing
    const samples = [];
    for (let i = 0; i < SAMPLES; i++) {
      const u = users[i % users.length];
      if (sc.write === "like") {
        const e = likeTargets[i];
        const a = await probe(u.cookie, `/api/echo/like/${e}`, "POST");
        const b = await probe(u.cookie, `/api/echo/like/${e}`, "DELETE");
        samples.push({ ...a, op: "like" }, { ...b, op: "unlike" });
      } else if (sc.write === "post") {
        const r = await probe(u.cookie, "/api/echo/post", "POST", JSON.parse(postBody()));
        samples.push(r);
        if (r.json?._id ?? r.json?.echo?._id) {
          const id = r.json._id ?? r.json.echo._id;
          samples.push({ ...(await probe(u.cookie, `/api/echo/delete/${id}`, "DELETE")), op: "delete" });
        }
      } else {
        samples.push(await probe(u.cookie, sc.path));
      }
    }
    const bad = samples.filter((s) => s.status >= 400 && s.status !== sc.expectStatus);
    if (bad.length) console.warn(`  ${sc.name}: sample answered ${bad.map((b) => b.status).join(",")}`);
    const stat = (k, f) => {
      const v = samples.filter((s) => f === undefined || f(s)).map((s) => s[k]).filter((x) => x !== null);
      return v.length ? Math.max(...v) : null;
    };
    const d1 = { roundTrips: stat("rt"), rowsRead: stat("rows"), rowsWritten: stat("written"), statuses: [...new Set(samples.map((s) => s.status))] };
    if (sc.write === "like") {
      d1.like = { roundTrips: stat("rt", (s) => s.op === "like"), rowsRead: stat("rows", (s) => s.op === "like"), rowsWritten: stat("written", (s) => s.op === "like") };
      d1.unlike = { roundTrips: stat("rt", (s) => s.op === "unlike"), rowsRead: stat("rows", (s) => s.op === "unlike"), rowsWritten: stat("written", (s) => s.op === "unlike") };
    }
    if (sc.write === "post") {
      d1.post = { roundTrips: stat("rt", (s) => !s.op), rowsRead: stat("rows", (s) => !s.op), rowsWritten: stat("written", (s) => !s.op) };
      d1.delete = { roundTrips: stat("rt", (s) => s.op === "delete"), rowsRead: stat("rows", (s) => s.op === "delete"), rowsWritten: stat("written", (s) => s.op === "delete") };
    }
    const echosOnPage = samples[0]?.json?.echos?.length ?? null;

    // the load: autocannon, a cookie per request rotated across the users
    let next = 0;
    const cookieFor = () => users[next++ % users.length].cookie;
    const requests =
      sc.write === "like"
        ? [
            {
              method: "POST",
              setupRequest: (req, ctx) => {
                ctx.cookie = cookieFor();
                ctx.echo = likeTargets[Math.floor(Math.random() * likeTargets.length)];
                return { ...req, path: `/api/echo/like/${ctx.echo}`, headers: { ...req.headers, cookie: ctx.cookie } };
              },
            },
            {
              method: "DELETE",
              setupRequest: (req, ctx) => ({ ...req, path: `/api/echo/like/${ctx.echo}`, headers: { ...req.headers, cookie: ctx.cookie } }),
            },
          ]
        : sc.write === "post"
          ? [
              {
                method: "POST",
                path: "/api/echo/post",
                setupRequest: (req) => ({ ...req, body: postBody(), headers: { ...req.headers, "content-type": "application/json", cookie: cookieFor() } }),
              },
            ]
          : [{ method: "GET", path: sc.path, setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: cookieFor() } }) }];
    const connections = sc.connections ?? CONNECTIONS;
    if (!sc.write) await autocannon({ url: base, connections, duration: 2, requests }); // warm-up
    // The constant route is measured right before and right after the scenario at the same
    // connection count (C S C): this machine's load drifts, and a ratio means something only
    // between figures of the same time window (issue 14). A drift that is linear over the window
    // cancels in the mean of the two slices.
    const isConstant = sc.constant || sc.constant50;
    const constantRequests = [{ method: "GET", path: "/api/health", setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: cookieFor() } }) }];
    const constantSlice = async () =>
      isConstant ? null : (await autocannon({ url: base, connections, duration: CONSTANT_SLICE, requests: constantRequests, timeout: 30 })).requests.average;
    const before = await constantSlice();
    // under the post load: post → visible on a matching feed's first page (the feed index is kept
    // from the change stream: this is its delay, queue and consumer, with every post's fan-out)
    const fresh = sc.write === "post" ? freshnessProbe(DURATION * 1000) : null;
    const r = await autocannon({ url: base, connections, duration: DURATION, requests, timeout: 30 });
    if (fresh) report.freshness = await fresh;
    const after = await constantSlice();
    const constantRps = isConstant ? null : Math.round(((before + after) / 2) * 10) / 10;
    const row = {
      name: sc.name,
      path: sc.path ?? sc.write,
      connections,
      constantRps,
      rps: Math.round(r.requests.average * 10) / 10,
      total: r.requests.total,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.timeouts + (sc.expectStatus ? r.requests.total - (r.statusCodeStats[sc.expectStatus]?.count ?? 0) : r.non2xx),
      non2xx: r.non2xx,
      statusCodes: r.statusCodeStats,
      d1,
      echosOnPage,
      page: !!sc.page,
      flags: { routerOnly: !!sc.expectStatus, constant: !!sc.constant, constant50: !!sc.constant50, home50: !!sc.home50, budget: sc.budget ?? null },
    };
    report.scenarios.push(row);
    console.log(
      `  ${sc.name.padEnd(58)} ${String(row.rps).padStart(8)} req/s${row.constantRps ? ` (constant ${row.constantRps}, ${(row.rps / row.constantRps).toFixed(2)}×)` : ""}  p50 ${String(row.p50).padStart(4)} ms  p99 ${String(row.p99).padStart(5)} ms  err ${row.errors}  rt ${d1.roundTrips}  rows ${d1.rowsRead}`,
    );
  }
} finally {
  await stop();
}

// ── the table and the budgets ────────────────────────────────────────────────────────────────
const rows = report.scenarios;
const ceiling = rows.find((r) => r.flags.constant);
const ceiling50 = rows.find((r) => r.flags.constant50);
// each scenario against the constant route of its own window (C S C); the constant rows are 1
for (const r of rows) r.ratio = r.constantRps ? Math.round((r.rps / r.constantRps) * 100) / 100 : r.flags.constant || r.flags.constant50 ? 1 : null;

const table = [];
const pad = (s, n, right = false) => (right ? String(s).padStart(n) : String(s).padEnd(n));
table.push(`${pad("scenario", 58)} ${pad("conn", 4, true)} ${pad("req/s", 8, true)} ${pad("const", 7, true)} ${pad("ratio", 6, true)} ${pad("p50 ms", 6, true)} ${pad("p99 ms", 6, true)} ${pad("errors", 6, true)} ${pad("D1 rt", 5, true)} ${pad("rows", 6, true)} ${pad("written", 7, true)}`);
table.push("-".repeat(table[0].length));
for (const r of rows) {
  const written = r.d1.like ? `${r.d1.like.rowsWritten}/${r.d1.unlike.rowsWritten}` : r.d1.post ? `${r.d1.post.rowsWritten}` : r.d1.rowsWritten;
  table.push(
    `${pad(r.name.slice(0, 58), 58)} ${pad(r.connections, 4, true)} ${pad(r.rps, 8, true)} ${pad(r.constantRps ?? "-", 7, true)} ${pad(r.ratio?.toFixed(2) ?? "-", 6, true)} ${pad(r.p50, 6, true)} ${pad(r.p99, 6, true)} ${pad(r.errors, 6, true)} ${pad(r.d1.roundTrips ?? "-", 5, true)} ${pad(r.d1.rowsRead ?? "-", 6, true)} ${pad(written ?? "-", 7, true)}`,
  );
}

const budgets = [];
const add = (name, met, measured) => budgets.push({ budget: name, met, measured });
const d1rows = rows.filter((r) => !r.flags.constant && !r.flags.constant50 && !r.flags.routerOnly);
const overRt = d1rows.filter((r) => (r.d1.roundTrips ?? 99) > BUDGET.roundTrips);
if (d1rows.length) add(`D1 round trips ≤ ${BUDGET.roundTrips} per request`, overRt.length === 0, overRt.length ? overRt.map((r) => `${r.name}: ${r.d1.roundTrips}`).join("; ") : `max ${Math.max(...d1rows.map((r) => r.d1.roundTrips ?? 0))}`);
const pages = rows.filter((r) => r.page);
const overRows = pages.filter((r) => (r.d1.rowsRead ?? Infinity) > BUDGET.rowsPerPage);
if (pages.length) add(`rows read ≤ ${BUDGET.rowsPerPage} per 20-echo page`, overRows.length === 0, overRows.length ? overRows.map((r) => `${r.name}: ${r.d1.rowsRead}`).join("; ") : `max ${Math.max(...pages.map((r) => r.d1.rowsRead))}`);
const all1 = rows.find((r) => r.flags.budget === "allEchos");
if (all1 && ceiling) add(`/api/echo/all ≥ ${BUDGET.allEchosRatio} × constant`, all1.ratio >= BUDGET.allEchosRatio, `${all1.ratio} (${all1.rps} / ${all1.constantRps} req/s, same window)`);
const home = rows.find((r) => r.flags.budget === "home");
if (home && ceiling) add(`home SSR ≥ ${BUDGET.homeRatio} × constant`, home.ratio >= BUDGET.homeRatio, `${home.ratio} (${home.rps} / ${home.constantRps} req/s, same window)`);
const home50 = rows.find((r) => r.flags.home50);
if (home50 && ceiling50) {
  // no request finished in the window: the p99 is longer than the window, not 0
  const done = home50.total > 0;
  add(
    `home SSR p99 @50 ≤ ${BUDGET.homeP99Factor} × constant p99 @50`,
    done && home50.p99 <= BUDGET.homeP99Factor * ceiling50.p99,
    done ? `${home50.p99} ms vs ${ceiling50.p99} ms (${(home50.p99 / Math.max(1, ceiling50.p99)).toFixed(1)}×)` : `no request completed in ${DURATION} s (p99 > ${DURATION * 1000} ms) vs ${ceiling50.p99} ms`,
  );
}
if (report.freshness) {
  const f = report.freshness;
  add("post → matching feed page p99 ≤ 5 s under the post load", f.missed.length === 0 && f.p99 !== null && f.p99 <= 5000, `p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms over ${f.seen} of ${f.probes} probes${f.missed.length ? `, missed ${f.missed.length}` : ""}`);
}
const errs = rows.filter((r) => r.errors > 0 || r.total === 0);
if (rows.length) add("zero errors", errs.length === 0, errs.length ? errs.map((r) => `${r.name}: ${r.total === 0 ? "no request completed" : r.errors} (${JSON.stringify(r.statusCodes)})`).join("; ") : "0");
for (const v of jsVerdicts(js)) add(v.name, v.ok, v.detail);
conversationBudgets(report, add, { roundTrips: BUDGET.roundTrips, rows: BUDGET.rowsPerPage });
const actionsOver = report.actions.filter((a) => (a.roundTrips ?? 99) > BUDGET.roundTrips);
add(`single actions (pages, /api, writes): round trips ≤ ${BUDGET.roundTrips}`, actionsOver.length === 0, actionsOver.length ? actionsOver.map((a) => `${a.action}: ${a.roundTrips}`).join("; ") : "all ≤ 2");
report.budgets = budgets;
report.table = table;

// the conversation alone keeps the whole bench's report
const out = path.join(dir, CONVERSATION_ONLY ? "bench-report-conversation.json" : "bench-report.json");
writeFileSync(out, JSON.stringify(report, null, 2));
console.log("");
console.log(table.join("\n"));
console.log("");
console.log("single actions (one request each): D1 round trips / rows read / rows written");
for (const a of report.actions) console.log(`  ${a.action.padEnd(60)} ${String(a.status).padStart(3)}  rt ${a.roundTrips}  read ${a.rowsRead}  written ${a.rowsWritten}`);
printConversation(report);
console.log("");
for (const b of budgets) console.log(`${b.met ? "MET   " : "MISSED"}  ${b.budget}: ${b.measured}`);
console.log(`\nreport: ${path.relative(root, out)}`);
