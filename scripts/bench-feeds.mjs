// `npm run bench:feeds`: rows read by EVERY feed of the benchmark store (issue 13), not by a few
// chosen shapes. Serves the production build on the store `npm run bench:data` built, then for
// each feed scroll walks `GET /api/scroll/{id}/echos?limit=20` by cursor to page 5, as its creator
// and (public feeds) as another user, reading D1 round trips and rows read from Server-Timing.
// Also the home page `/` of the bench readers (bench10…bench29), which shows their first feed.
// Prints the distribution per case (median, p90, p99, max, over 200) and the worst ten rules,
// and writes <STATE_DIR>/bench-feeds-report.json (or FEEDS_REPORT).
//
// Sessions: written into the store for every creator and reader (bench-session.mjs).
//
// Env: FEEDS_SAMPLE (measure n feeds drawn at random with a fixed seed instead of all),
// FEEDS_DEADLINE (seconds: take no new feed after it; the feeds are measured in that same seeded
// random order, so a cut run is a random sample, and the report says how many were measured),
// FEEDS_PAGES (pages per walk, default 5), FEEDS_CONCURRENCY (default 4), BENCH_PORT (8812),
// FEEDS_DEEP_SAMPLE (public feeds also paged by number to FEEDS_DEEP_PAGES, default 100 and 50),
// FEEDS_DEPTH_SAMPLE (n: only the first n feeds of the seeded order are walked to FEEDS_PAGES and by
// number; every other feed has its first page read once — as another user, or as its creator when
// private — so a store of thousands of feeds is measured whole at page 1 and sampled in depth),
// BENCH_URL (a server already serving the store), FEEDS_HIDE_LIKED=1, FEEDS_IDS and FEEDS_READERS (above), FEEDS_HIDER=1 (the public feeds read by the heavy
// hider of scripts/bench-hider.mjs instead of another user, and only by them: its pages also count
// echos the hider must not see), FEED_FILL=0 (the server sends no filling round trip: decision 034's before).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { root } from "./lib.mjs";
import { buildVerticals } from "./build.mjs";
import { startServer } from "./server.mjs";
import { leaks, pickHider, setUpHider } from "./bench-hider.mjs";
import { prober, sessionSecret, writeSessions } from "./bench-session.mjs";

const dir = path.resolve(root, process.env.STATE_DIR || "bench-state");
const SAMPLE = Number(process.env.FEEDS_SAMPLE || "0");
const DEADLINE = Number(process.env.FEEDS_DEADLINE || "0");
const PAGES = Number(process.env.FEEDS_PAGES || "5");
const CONCURRENCY = Number(process.env.FEEDS_CONCURRENCY || "4");
const PORT = Number(process.env.BENCH_PORT || "8812");
const BUDGET = 200;
const out = path.resolve(root, process.env.FEEDS_REPORT || path.join(dir, "bench-feeds-report.json"));

const metaFile = path.join(dir, "bench-meta.json");
if (!existsSync(metaFile)) throw new Error(`no benchmark store at ${dir}: run npm run bench:data first`);
if (!existsSync(path.join(root, "build", "echos", "server"))) await buildVerticals();
const secret = await sessionSecret();

// ── the feeds, and sessions for their creators and the readers ──────────────────────────────
const d1Dir = path.join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
const file = readdirSync(d1Dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
const db = new DatabaseSync(path.join(d1Dir, file));
let feeds = db
  .prepare(
    `SELECT s.id, s.is_private, s.creator_id, s.tag_match_type, s.included_tags, s.excluded_tags, s.authors, s.sort_by,
       s.sort_time_range, s.exclude_liked_echos, s.start_date, s.end_date
     FROM scrolls s WHERE s.type = 'feed' ORDER BY s.id`,
  )
  .all();
const allFeeds = feeds.length;
{
  // a fixed seed: the same order (and sample) before and after a change
  let a = 13;
  const rand = () => ((a = (a * 1103515245 + 12345) % 2147483648), a / 2147483648);
  feeds = feeds.map((f) => [rand(), f]).sort((x, y) => x[0] - y[0]).map(([, f]) => f);
  if (SAMPLE > 0) feeds = feeds.slice(0, SAMPLE);
}
const readers = db.prepare(`SELECT id, user_name FROM users WHERE user_name IN (${Array.from({ length: 20 }, (_, i) => `'bench${10 + i}'`).join(",")})`).all();
const HIDER = process.env.FEEDS_HIDER === "1";
const hiding = HIDER ? pickHider(db) : null;
// the heavy hider reads public feeds only
if (HIDER) feeds = feeds.filter((f) => !f.is_private);
// FEEDS_IDS: a file of feed ids, one a line (e.g. the short first screens of an earlier report): only those
if (process.env.FEEDS_IDS) {
  const ids = new Set(readFileSync(process.env.FEEDS_IDS, "utf8").split("\n").map((l) => l.trim()).filter(Boolean));
  feeds = feeds.filter((f) => ids.has(f.id));
}
// FEEDS_HIDE_LIKED=1: only the feeds that hide what their reader liked (decision 033's before/after)
if (process.env.FEEDS_HIDE_LIKED === "1") feeds = feeds.filter((f) => f.exclude_liked_echos);
// FEEDS_READERS: the two other users who read each feed (default bench22,bench23; e.g. the heavy likers bench3,bench10)
const otherNames = (process.env.FEEDS_READERS || "bench22,bench23").split(",");
const other = db.prepare(`SELECT id, user_name FROM users WHERE user_name IN (${otherNames.map(() => "?").join(",")}) ORDER BY user_name`).all(...otherNames);
const userIds = new Set([...feeds.map((f) => f.creator_id), ...readers.map((r) => r.id), ...other.map((o) => o.id), ...(hiding ? [hiding.hider.id, hiding.blocker] : [])]);
const cookies = await writeSessions(db, userIds, secret);
db.close();

// ── measuring ────────────────────────────────────────────────────────────────────────────────
console.log(`bench:feeds: ${feeds.length} of ${allFeeds} feeds, ${PAGES} pages by cursor, as creator and as another user`);
// BENCH_URL: measure a server already serving this store (e.g. while bench:data builds its indexes)
const server = process.env.BENCH_URL
  ? { baseUrl: process.env.BENCH_URL, stop: async () => {} }
  : await startServer({ port: PORT, stateDir: dir, vars: { EXPOSE_D1_STATS: "1", AUTH_IP_LIMIT_PER_MINUTE: "1000000", ...(process.env.FEED_FILL ? { FEED_FILL: process.env.FEED_FILL } : {}) } });
const base = server.baseUrl;
if (hiding) {
  console.log(`heavy hider ${hiding.hider.user_name}: ${hiding.blocked.length} blocked, 1 muted, 1 blocker, ${hiding.words.length} words${hiding.ready ? " (set up before)" : ""}`);
  const t = Date.now();
  const send = async (userId, method, p, body) => {
    const res = await fetch(base + p, {
      method,
      headers: { Cookie: cookies.get(userId), ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    await res.arrayBuffer();
    return res.status;
  };
  await setUpHider(hiding, send).catch(async (error) => {
    await server.stop();
    throw error;
  });
  console.log(`  set up in ${((Date.now() - t) / 1000).toFixed(0)} s`);
}

const probe = prober(base);

/** For the heavy hider: how many echos of a page it must not see. */
const seen = (echos) => (hiding ? { leaks: leaks(hiding, echos) } : {});

/** Pages 1..PAGES of a feed by cursor: rows, round trips, echos and latency of each. */
async function walk(cookie, id, depth = PAGES) {
  const pages = [];
  let cursor = null;
  for (let page = 1; page <= depth; page++) {
    const r = await probe(cookie, `/api/scroll/${id}/echos?limit=20${cursor ? `&page=${page}&cursor=${encodeURIComponent(cursor)}` : ""}`);
    if (r.status !== 200) throw new Error(`feed ${id} page ${page}: ${r.status} ${JSON.stringify(r.json)}`);
    pages.push({ page, rows: r.rows, rt: r.rt, echos: r.json.echos.length, ms: r.ms, hasMore: r.json.pagination.hasMore, index: r.json.feedIndex ?? null, ...seen(r.json.echos) });
    cursor = r.json.pagination.nextCursor;
    if (!r.json.pagination.hasMore) break;
  }
  return pages;
}

/** Pages 1..n of a feed by number only, as the spec's client pages (keeping the cookies the API sets). */
async function walkByNumber(cookie, id, n) {
  const pages = [];
  const jar = new Map();
  for (let page = 1; page <= n; page++) {
    const r = await probe(cookie, `/api/scroll/${id}/echos?limit=20&page=${page}`, jar);
    if (r.status !== 200) {
      pages.push({ page, status: r.status, rows: r.rows, rt: r.rt, echos: 0, error: r.json?.error ?? r.json?.message ?? null });
      break;
    }
    pages.push({ page, rows: r.rows, rt: r.rt, echos: r.json.echos.length, ms: r.ms, hasMore: r.json.pagination.hasMore, ...seen(r.json.echos) });
    if (!r.json.pagination.hasMore) break;
  }
  return pages;
}
const DEEP = Number(process.env.FEEDS_DEEP_SAMPLE || "100");
const DEEP_PAGES = Number(process.env.FEEDS_DEEP_PAGES || "50");
const DEPTH_SAMPLE = Number(process.env.FEEDS_DEPTH_SAMPLE || "0");

const otherFor = (creatorId) => (hiding ? hiding.hider : other[0].id === creatorId ? other[1] : other[0]);
const results = [];
const home = [];
let done = 0;
let started = 0;
const t0 = Date.now();
try {
  const queue = [...feeds];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let f = queue.shift(); f && !(DEADLINE && Date.now() - t0 > DEADLINE * 1000); f = queue.shift()) {
        // past the depth sample: the feed's first page only, read once
        const pages = DEPTH_SAMPLE && started >= DEPTH_SAMPLE ? 1 : PAGES;
        const sampled = pages === PAGES;
        started++;
        const creator = !hiding && (sampled || f.is_private) ? await walk(cookies.get(f.creator_id), f.id, pages) : [];
        const another = f.is_private ? null : await walk(cookies.get(otherFor(f.creator_id).id), f.id, pages);
        // public feeds also by number, as the spec's client pages them; a sample of them 50 pages deep
        const deep = sampled && !f.is_private && done < DEEP;
        const byNumber = f.is_private || !sampled ? null : await walkByNumber(cookies.get(otherFor(f.creator_id).id), f.id, deep ? DEEP_PAGES : PAGES);
        results.push({ id: f.id, rule: ruleText(f), creator, other: another, byNumber, deep, sampled });
        if (++done % 250 === 0) console.log(`  ${done}/${feeds.length} feeds (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      }
    }),
  );
  for (const r of readers) {
    const p = await probe(cookies.get(r.id), "/");
    home.push({ user: r.user_name, status: p.status, rows: p.rows, rt: p.rt, ms: p.ms });
  }
} finally {
  await server.stop();
}

function ruleText(f) {
  const parts = [];
  const inc = JSON.parse(f.included_tags || "[]");
  if (inc.length) parts.push(`${f.tag_match_type}-of ${inc.length} tags`);
  const exc = JSON.parse(f.excluded_tags || "[]");
  if (exc.length) parts.push(`${exc.length} excluded`);
  const au = JSON.parse(f.authors || "[]");
  if (au.length) parts.push(`${au.length} authors`);
  parts.push(f.sort_by === "mostLiked" ? `most liked ${f.sort_time_range}` : f.sort_by);
  if (f.exclude_liked_echos) parts.push("hide-liked");
  if (f.start_date || f.end_date) parts.push(`dates ${f.start_date ? new Date(f.start_date).toISOString().slice(0, 10) : "…"}–${f.end_date ? new Date(f.end_date).toISOString().slice(0, 10) : "…"}`);
  return parts.join(", ");
}

// ── the distribution ─────────────────────────────────────────────────────────────────────────
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
function dist(values) {
  const v = values.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  if (!v.length) return { count: 0 };
  return { count: v.length, median: pct(v, 50), p90: pct(v, 90), p99: pct(v, 99), max: v[v.length - 1], over200: v.filter((x) => x > BUDGET).length };
}
const cases = {
  "creator, page 1": results.map((r) => r.creator[0]).filter(Boolean),
  [`creator, page ${PAGES}`]: results.map((r) => r.creator[PAGES - 1]).filter(Boolean),
  "creator, any page": results.flatMap((r) => r.creator),
  "other user, page 1": results.filter((r) => r.other).map((r) => r.other[0]),
  [`other user, page ${PAGES}`]: results.filter((r) => r.other).map((r) => r.other[PAGES - 1]).filter(Boolean),
  "other user, any page": results.flatMap((r) => r.other ?? []),
  "by number, any page": results.flatMap((r) => r.byNumber ?? []),
  "home / of bench10…29": home,
};
const depthSample = results.filter((r) => r.sampled).length;
const report = { startedAt: new Date(t0).toISOString(), seconds: (Date.now() - t0) / 1000, feeds: results.length, allFeeds, pages: PAGES, depthSample, cases: {}, worst: [], home, results };
const pad = (s, n) => String(s).padStart(n);
console.log(`\nmeasured ${results.length} of ${allFeeds} feeds${results.length < feeds.length ? " (stopped at FEEDS_DEADLINE)" : ""}${DEPTH_SAMPLE ? `, ${depthSample} of them in depth, the others at page 1` : ""}`);
console.log(`${"case".padEnd(24)} ${pad("pages", 6)} ${pad("median", 7)} ${pad("p90", 7)} ${pad("p99", 7)} ${pad("max", 8)} ${pad(">200", 6)} ${pad("max rt", 6)} ${pad("max ms", 7)} ${pad("empty", 6)}`);
for (const [name, pages] of Object.entries(cases)) {
  const rows = dist(pages.map((p) => p.rows));
  const ms = dist(pages.map((p) => p.ms));
  const rt = Math.max(0, ...pages.map((p) => p.rt ?? 0));
  const empty = pages.filter((p) => p.echos === 0).length;
  report.cases[name] = { rows, ms, maxRoundTrips: rt, emptyPages: empty };
  console.log(`${name.padEnd(24)} ${pad(rows.count, 6)} ${pad(rows.median, 7)} ${pad(rows.p90, 7)} ${pad(rows.p99, 7)} ${pad(rows.max, 8)} ${pad(rows.over200, 6)} ${pad(rt, 6)} ${pad(ms.max, 7)} ${pad(empty ?? "-", 6)}`);
}
// ── full pages (issue 27): the first screen in one request, and no page short of a full one
// while more is to come, for every public feed
const publicFeeds = results.filter((r) => r.other);
const firstScreen = (r) => r.other[0].echos === 20 || !r.other[0].hasMore;
const short = (p) => p.echos < 20 && p.hasMore;
const fill = {
  publicFeeds: publicFeeds.length,
  firstScreenInOneRequest: publicFeeds.filter(firstScreen).length,
  feedsWithAShortPage: publicFeeds.filter((r) => r.other.some(short)).length,
  emptyPagesWithMore: publicFeeds.reduce((n, r) => n + r.other.filter((p) => p.echos === 0 && p.hasMore).length, 0),
  shortPagesOfReadyIndexes: publicFeeds.reduce((n, r) => n + r.other.filter((p) => short(p) && p.index === "ready").length, 0),
  indexBuilding: publicFeeds.filter((r) => r.other[0].index === "building").length,
  // page 1's round trips: 2 where the scroll's lookup went first (an isolate without the feed's
  // hint) or a second statement filled or continued the page (decision 034)
  firstPageRoundTrips: publicFeeds.reduce((n, r) => ({ ...n, [r.other[0].rt]: (n[r.other[0].rt] ?? 0) + 1 }), {}),
  byNumber: {
    pages: publicFeeds.reduce((n, r) => n + (r.byNumber ?? []).length, 0),
    refused: publicFeeds.filter((r) => (r.byNumber ?? []).some((p) => p.status)).map((r) => ({ id: r.id, rule: r.rule, at: (r.byNumber ?? []).find((p) => p.status) })),
    maxRows: Math.max(0, ...publicFeeds.flatMap((r) => (r.byNumber ?? []).map((p) => p.rows ?? 0))),
    maxRoundTrips: Math.max(0, ...publicFeeds.flatMap((r) => (r.byNumber ?? []).map((p) => p.rt ?? 0))),
    deepFeeds: publicFeeds.filter((r) => r.deep).length,
    deepestPage: Math.max(0, ...publicFeeds.map((r) => (r.byNumber ?? []).length)),
    deepMaxRows: Math.max(0, ...publicFeeds.filter((r) => r.deep).flatMap((r) => (r.byNumber ?? []).map((p) => p.rows ?? 0))),
    shortPages: publicFeeds.reduce((n, r) => n + (r.byNumber ?? []).filter((p) => !p.status && short(p)).length, 0),
  },
  // the heavy hider: echos shown that it must not see (0), and the share of the newest echos hidden from it
  ...(hiding ? { hider: { leaks: publicFeeds.reduce((n, r) => n + [...r.other, ...(r.byNumber ?? [])].reduce((m, p) => m + (p.leaks ?? 0), 0), 0), share: hiding.share } } : {}),
};
const unfilled = publicFeeds.filter((r) => !firstScreen(r));
const byShape = {};
for (const r of unfilled) byShape[r.rule.replace(/\d+ /g, "n ")] = (byShape[r.rule.replace(/\d+ /g, "n ")] ?? 0) + 1;
fill.unfilledByShape = Object.entries(byShape).sort((a, b) => b[1] - a[1]).slice(0, 15);
report.fill = fill;
console.log(`\nfull pages over ${fill.publicFeeds} public feeds: first screen in one request ${fill.firstScreenInOneRequest} (${((100 * fill.firstScreenInOneRequest) / Math.max(1, fill.publicFeeds)).toFixed(1)} %), feeds with a short page before their end ${fill.feedsWithAShortPage}, empty pages with more ${fill.emptyPagesWithMore}, short pages of ready indexes ${fill.shortPagesOfReadyIndexes}, still building ${fill.indexBuilding}`);
console.log(`page 1 by round trips: ${JSON.stringify(fill.firstPageRoundTrips)}`);
console.log(`by number: ${fill.byNumber.pages} pages, refused ${fill.byNumber.refused.length}, max rows ${fill.byNumber.maxRows}, max round trips ${fill.byNumber.maxRoundTrips}, short ${fill.byNumber.shortPages}; ${fill.byNumber.deepFeeds} feeds to page ${DEEP_PAGES} (deepest ${fill.byNumber.deepestPage}), max rows ${fill.byNumber.deepMaxRows}`);
if (fill.hider) console.log(`heavy hider: ${(100 * fill.hider.share.hidden).toFixed(0)} % of the newest ${fill.hider.share.sample} echos hidden (${(100 * fill.hider.share.byAuthor).toFixed(0)} % by author); echos shown it must not see: ${fill.hider.leaks}`);
for (const [shape, n] of fill.unfilledByShape) console.log(`  unfilled: ${String(n).padStart(5)}  ${shape}`);
for (const r of fill.byNumber.refused.slice(0, 5)) console.log(`  refused by number: ${r.id} ${r.rule} page ${r.at.page}: ${r.at.status} ${r.at.error}`);

const worst = results
  .map((r) => ({ id: r.id, rule: r.rule, rows: Math.max(...[...r.creator, ...(r.other ?? [])].map((p) => p.rows)) }))
  .sort((a, b) => b.rows - a.rows)
  .slice(0, 10);
report.worst = worst;
console.log("\nworst ten feeds (most rows one page read):");
for (const w of worst) console.log(`  ${pad(w.rows, 8)}  ${w.id}  ${w.rule}`);
console.log(`\nhome /: ${home.map((h) => `${h.user} ${h.rows}`).join(", ")}`);
writeFileSync(out, JSON.stringify(report, null, 2));
console.log(`\nreport: ${path.relative(root, out)} (${report.seconds.toFixed(0)} s)`);
