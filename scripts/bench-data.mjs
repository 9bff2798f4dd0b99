// `npm run bench:data`: the benchmark's store (issue 6). Builds a local D1 database in its own
// STATE_DIR (default bench-state/): the migrations applied by wrangler, then the rows written
// straight into the D1 SQLite file with node:sqlite in big transactions (indexes and triggers
// dropped during the load, then recreated from the exact SQL the migrations stored), every
// counter recomputed with set-based SQL, ANALYZE. Finally a sample is checked against the
// services: the production build is started on the store and counters read through the API
// are compared with COUNT(*)s, and one post/like/unlike/delete checks the triggers are live.
//
// Sizes (BENCH_SCALE multiplies all of them; default 1): 50,000 users, 1,000,000 echos over the
// last two years (Zipf authors, 1–5 Zipf tags from a vocabulary of 20,000), 5,000,000 likes
// skewed to a small share of echos, 10,000 scrolls (feeds of every rule shape, curations),
// 200,000 user follows (and a reader following 5,000 accounts, scripts/bench-following.mjs), every
// follow's Following timeline rows. BENCH_SEED fixes the shapes (ids stay random, as the services make them).
// (Over 300 lines: one linear load over one SQLite file, its phases in the order the rows depend on
// each other — users, echos, likes, follows, timelines, scrolls, threads, reposts, counters, indexes —
// each timed in the log; the follows reader and the index build are files of their own.)
import { randomBytes, scryptSync } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { migrate, root } from "./lib.mjs";
import { buildVerticals } from "./build.mjs";
import { addFollowing } from "./bench-following.mjs";
import { startServer } from "./server.mjs";
import { buildFeedIndexes } from "./feed-indexes.mjs";
import { fillMuteText } from "./mute-text.mjs";

// the ids of modules/shared/ids.ts newId (scripts may not reach into a module): 10 Crockford base32
// characters of milliseconds, then 16 random ones, so ids sort by creation time.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
function newId(now = Date.now()) {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let rand = "";
  for (const b of bytes) rand += ALPHABET[b % 32];
  return time + rand;
}

const DAY = 86_400_000;
const SCALE = Number(process.env.BENCH_SCALE || "1");
const SEED = Number(process.env.BENCH_SEED || "42");
const PASSWORD = "benchpass";
const PORT = Number(process.env.BENCH_PORT || "8810");
const dir = path.resolve(root, process.env.STATE_DIR || "bench-state");

const N = {
  users: Math.max(100, Math.round(50_000 * SCALE)),
  echos: Math.max(1_000, Math.round(1_000_000 * SCALE)),
  vocabulary: Math.max(200, Math.round(20_000 * SCALE)),
  likes: Math.max(5_000, Math.round(5_000_000 * SCALE)),
  scrolls: Math.max(200, Math.round(10_000 * SCALE)),
  follows: Math.max(2_000, Math.round(200_000 * SCALE)),
  scrollFollows: Math.max(500, Math.round(50_000 * SCALE)),
};

// ── timing ───────────────────────────────────────────────────────────────────────────────────
const t0 = Date.now();
const phases = [];
let phaseStart = Date.now();
function phase(name) {
  const now = Date.now();
  phases.push({ phase: name, seconds: (now - phaseStart) / 1000 });
  console.log(`  ${name.padEnd(44)} ${((now - phaseStart) / 1000).toFixed(1).padStart(7)} s`);
  phaseStart = now;
}

// ── seeded randomness and Zipf ───────────────────────────────────────────────────────────────
function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const int = (n) => Math.floor(rand() * n);
const pick = (arr) => arr[int(arr.length)];

/** Rank 0..n-1 with P(rank r) ∝ 1/(r+1)^s. */
function zipf(n, s) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / Math.pow(i + 1, s);
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const WORDS = (
  "the a of and to in is it that was for on are with as at be this have from or one had by word but not what all were " +
  "we when your can said there use an each which she do how their if will up other about out many then them these so " +
  "some her would make like him into time has look two more write go see number no way could people my than first water " +
  "been call who oil its now find long down day did get come made may part coffee river morning build ship code train " +
  "music book garden city light night rain sun road friend team idea plan story"
).split(" ");
const content = () => {
  const n = 6 + int(24);
  const w = [];
  for (let i = 0; i < n; i++) w.push(pick(WORDS));
  const s = w.join(" ");
  return s[0].toUpperCase() + s.slice(1) + ".";
};
const tagName = (rank) => `tag${rank + 1}`;
const userName = (i) => `bench${i}`;

// ── 1. a fresh store with the migrations applied by wrangler ───────────────────────────────────
console.log(`bench:data → ${path.relative(root, dir) || dir} (scale ${SCALE})`);
console.log(`  sizes: ${JSON.stringify(N)}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
await migrate(dir);
const d1dir = path.join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
const files = readdirSync(d1dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
if (files.length !== 1) throw new Error(`expected one D1 sqlite file in ${d1dir}, found ${files.join(", ")}`);
const dbFile = path.join(d1dir, files[0]);
phase("migrations (wrangler d1 migrations apply)");

const db = new DatabaseSync(dbFile);
const journal = db.prepare("PRAGMA journal_mode").get().journal_mode;
db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -1500000; PRAGMA temp_store = MEMORY;");
db.exec("PRAGMA foreign_keys = OFF");

// The exact schema objects the migrations created: dropped for the load, recreated from this SQL.
const saved = db
  .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid")
  .all();
const schemaBefore = db.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").all();
for (const o of saved) db.exec(`DROP ${o.type.toUpperCase()} "${o.name}"`);
phase(`dropped ${saved.filter((o) => o.type === "index").length} indexes, ${saved.filter((o) => o.type === "trigger").length} triggers`);

// ── 2. users ────────────────────────────────────────────────────────────────────────────────
// One scrypt hash in the services' format (modules/auth/password.server.ts), shared by every user.
const salt = randomBytes(16);
const key = scryptSync(PASSWORD.normalize("NFC"), salt, 32, { N: 16384, r: 8, p: 5, maxmem: 64 * 1024 * 1024 });
const passwordHash = `scrypt$16384$8$5$${salt.toString("base64")}$${key.toString("base64")}`;
const now = Date.now();
const userIds = new Array(N.users);
const userStart = now - 3 * 365 * DAY;
db.exec("BEGIN");
{
  const ins = db.prepare("INSERT INTO users (id, user_name, password_hash, bio, email, created_at) VALUES (?, ?, ?, '', NULL, ?)");
  for (let i = 0; i < N.users; i++) {
    const at = userStart + i * Math.floor((365 * DAY) / N.users); // distinct ms: id order = index order
    userIds[i] = newId(at);
    ins.run(userIds[i], userName(i), passwordHash, at);
  }
}
db.exec("COMMIT");
phase(`users: ${N.users}`);

// ── 3. echos, echo_tags, likes (in id order, so primary keys append) ─────────────────────────
const from = now - 2 * 365 * DAY;
const times = new Float64Array(N.echos);
for (let i = 0; i < N.echos; i++) times[i] = Math.floor(from + rand() * (now - 60_000 - from));
times.sort();
const authorOf = zipf(N.users, 1.0); // bench0 is the most prolific author
const tagOf = zipf(N.vocabulary, 1.0); // tag1 is the hottest tag
// Likes: a heavy-tailed weight per echo (Pareto, α = 0.8), scaled to the total; most echos get
// none or a few, a small share gets most. Likers: a fifth of the draws Zipf (a few heavy likers),
// the rest uniform.
const weights = new Float64Array(N.echos);
let wsum = 0;
for (let i = 0; i < N.echos; i++) {
  const w = rand() < 0.35 ? 0 : Math.pow(1 - rand(), -1 / 0.8) - 1;
  weights[i] = w;
  wsum += w;
}
const cap = Math.floor(N.users * 0.5);
// the scale that hits the target total once the cap (half the users) clips the heaviest echos
let likeScale = N.likes / wsum;
for (let round = 0; round < 8; round++) {
  let total = 0;
  for (let i = 0; i < N.echos; i++) total += Math.min(cap, weights[i] * likeScale);
  likeScale *= N.likes / total;
}
const likerZipf = zipf(N.users, 1.0);
const likerOf = () => (rand() < 0.2 ? (likerZipf() * 7 + 3) % N.users : int(N.users)); // heaviest liker: bench3
const echoIds = new Array(N.echos);
const tagFirstSeen = new Map();
let likesWritten = 0;
let echoTagsWritten = 0;
db.exec("BEGIN");
{
  const insEcho = db.prepare(
    "INSERT INTO echos (id, author_id, content, tags, created_at, likes_count, shares_count, comments_count) VALUES (?, ?, ?, ?, ?, 0, 0, 0)",
  );
  const insTag = db.prepare("INSERT INTO echo_tags (tag, echo_id, likes_count, day, tags, author_id) VALUES (?, ?, 0, ?, ?, ?)");
  const insLike = db.prepare("INSERT INTO likes (echo_id, user_id, created_at) VALUES (?, ?, ?)");
  const likers = new Set();
  for (let i = 0; i < N.echos; i++) {
    const at = times[i];
    const id = newId(at);
    echoIds[i] = id;
    const tags = new Set();
    const nTags = 1 + int(5);
    while (tags.size < nTags) tags.add(tagName(tagOf()));
    const list = [...tags];
    const tagsJson = JSON.stringify(list);
    const author = userIds[authorOf()];
    insEcho.run(id, author, content(), tagsJson, at);
    const day = Math.floor(at / DAY);
    for (const t of list) {
      insTag.run(t, id, day, tagsJson, author);
      if (!tagFirstSeen.has(t)) tagFirstSeen.set(t, at);
    }
    echoTagsWritten += list.length;
    const w = weights[i] * likeScale;
    let k = Math.min(cap, Math.floor(w) + (rand() < w - Math.floor(w) ? 1 : 0));
    if (k > 0) {
      likers.clear();
      if (k > N.users / 8) {
        for (let u = 0; u < N.users; u++) if (rand() < k / N.users) likers.add(u);
      } else {
        while (likers.size < k) likers.add(likerOf());
      }
      const sorted = [...likers].sort((a, b) => a - b); // user ids sort as their indexes
      for (const u of sorted) insLike.run(id, userIds[u], Math.floor(at + rand() * (now - at)));
      likesWritten += sorted.length;
    }
    if (i % 200_000 === 199_999) {
      db.exec("COMMIT; BEGIN");
      console.log(`    … ${i + 1} echos, ${likesWritten} likes`);
    }
  }
}
db.exec("COMMIT");
phase(`echos: ${N.echos}, echo_tags: ${echoTagsWritten}, likes: ${likesWritten}`);

// ── 4. follows ──────────────────────────────────────────────────────────────────────────────
const followeeOf = zipf(N.users, 0.9);
const follows = new Set();
while (follows.size < N.follows) {
  const a = int(N.users);
  const b = followeeOf();
  if (a !== b) follows.add(a * N.users + b);
}
db.exec("BEGIN");
{
  const ins = db.prepare("INSERT INTO user_follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)");
  for (const k of [...follows].sort((x, y) => x - y)) {
    ins.run(userIds[Math.floor(k / N.users)], userIds[k % N.users], Math.floor(from + rand() * (now - from)));
  }
}
db.exec("COMMIT");
phase(`user_follows: ${follows.size}`);

// ── 4b. the Following timeline: two readers' follows, every follow's backfill (decision 013) ──
const following = addFollowing(db, { users: N.users, idOf: (i) => userIds[i], now });
phase(`timeline_entries: ${following.timelineEntries} (a reader following ${following.wideFollower.follows})`);

// ── 5. scrolls: feeds of every rule shape, curations; the benchmark's named scrolls ──────────
const SORTS = ["newestFirst", "oldestFirst", "mostLiked"];
const RANGES = ["1day", "1month", "1year", "allTime"];
const tagsZ = (n, bias = tagOf) => {
  const s = new Set();
  while (s.size < n) s.add(tagName(bias()));
  return [...s];
};
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
const scrollRows = [];
function feed(over = {}) {
  const included = over.included ?? tagsZ(rand() < 0.15 ? 0 : 1 + int(10));
  const excludedAll = over.excluded ?? (rand() < 0.4 ? tagsZ(1 + int(6)) : []);
  const excluded = excludedAll.filter((t) => !included.includes(t));
  let start = null;
  let end = null;
  if (over.dates ?? rand() < 0.2) {
    const a = from + rand() * (now - from);
    const b = a + rand() * (now - a);
    start = Date.parse(isoDay(a));
    end = Date.parse(isoDay(b)) + DAY - 1; // an inclusive end day, as the service stores it
  }
  if (over.dates === false) start = end = null;
  if (Array.isArray(over.dates)) [start, end] = over.dates;
  return {
    type: "feed",
    tag_match_type: included.length === 0 ? "any" : (over.match ?? (rand() < 0.3 ? "all" : "any")),
    included_tags: JSON.stringify(included),
    excluded_tags: JSON.stringify(excluded),
    authors: JSON.stringify(over.authors ?? (rand() < 0.15 ? Array.from({ length: 1 + int(3) }, () => userIds[authorOf()]).filter((v, i, a) => a.indexOf(v) === i) : [])),
    sort_by: over.sort ?? pick(SORTS),
    sort_time_range: over.range ?? pick(RANGES),
    exclude_liked_echos: (over.hideLiked ?? rand() < 0.2) ? 1 : 0,
    start_date: start,
    end_date: end,
  };
}
const curationRule = {
  type: "curation", tag_match_type: "any", included_tags: "[]", excluded_tags: "[]", authors: "[]",
  sort_by: "newestFirst", sort_time_range: "allTime", exclude_liked_echos: 0, start_date: null, end_date: null,
};
const creatorOf = zipf(N.users, 0.8);
const scrollTimes = Array.from({ length: N.scrolls }, () => Math.floor(from + rand() * (now - from))).sort((a, b) => a - b);
for (let i = 0; i < N.scrolls; i++) {
  const rule = rand() < 0.65 ? feed() : curationRule;
  scrollRows.push({ ...rule, creator: userIds[creatorOf()], name: `${rule.type} ${i}`, is_private: rand() < 0.1 ? 1 : 0, created_at: scrollTimes[i] });
}
// The scenarios the benchmark hammers, created last (newest), public, by bench1.
const yearAgo = now - 365 * DAY;
const named = {
  "feed: any of 1 hot tag, newest": feed({ included: [tagName(0)], excluded: [], authors: [], sort: "newestFirst", range: "allTime", hideLiked: false, dates: false }),
  "feed: all of 2 common tags": feed({ included: [tagName(0), tagName(1)], match: "all", excluded: [], authors: [], sort: "newestFirst", range: "allTime", hideLiked: false, dates: false }),
  "feed: any of 10 tags, 6 exclusions": feed({ included: Array.from({ length: 10 }, (_, i) => tagName(i * 3 + 2)), excluded: Array.from({ length: 6 }, (_, i) => tagName(i * 3)), match: "any", authors: [], sort: "newestFirst", range: "allTime", hideLiked: false, dates: false }),
  "feed: hot tag, hide-liked (heavy liker)": feed({ included: [tagName(0)], excluded: [], authors: [], sort: "newestFirst", range: "allTime", hideLiked: true, dates: false }),
  "feed: most liked over a year, 2 tags": feed({ included: [tagName(2), tagName(4)], match: "any", excluded: [], authors: [], sort: "mostLiked", range: "1year", hideLiked: false, dates: false }),
  "feed: all-of + 3 exclusions + hide-liked + most liked 1y": feed({ included: [tagName(0), tagName(1)], match: "all", excluded: [tagName(2), tagName(3), tagName(4)], authors: [], sort: "mostLiked", range: "1year", hideLiked: true, dates: false }),
  "feed: 3 authors, newest": feed({ included: [], excluded: [], authors: [userIds[0], userIds[1], userIds[2]], sort: "newestFirst", range: "allTime", hideLiked: false, dates: false }),
  "feed: hot tag in a date range, oldest": feed({ included: [tagName(0)], excluded: [], authors: [], sort: "oldestFirst", range: "allTime", hideLiked: false, dates: [Date.parse(isoDay(yearAgo)), Date.parse(isoDay(yearAgo + 30 * DAY)) + DAY - 1] }),
  "feed: no rule, most liked all time": feed({ included: [], excluded: [], authors: [], sort: "mostLiked", range: "allTime", hideLiked: false, dates: false }),
  "feed: cold tag": feed({ included: [tagName(Math.floor(N.vocabulary * 0.6))], excluded: [], authors: [], sort: "newestFirst", range: "allTime", hideLiked: false, dates: false }),
  "curation: 200 echos": curationRule,
  "curation: 40 echos": curationRule,
};
const namedIndex = {};
for (const [label, rule] of Object.entries(named)) {
  namedIndex[label] = scrollRows.length;
  scrollRows.push({ ...rule, creator: userIds[1], name: label.slice(0, 50), is_private: 0, created_at: now - 60_000 + scrollRows.length - N.scrolls });
}
let scrollEchos = 0;
let scrollFollowsWritten = 0;
db.exec("BEGIN");
{
  const ins = db.prepare(`INSERT INTO scrolls (id, creator_id, name, description, type, is_private, created_at, tag_match_type,
    included_tags, excluded_tags, authors, sort_by, sort_time_range, exclude_liked_echos, start_date, end_date, followers_count, echos_count)
    VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`);
  const insSE = db.prepare("INSERT INTO scroll_echos (scroll_id, echo_id, added_at) VALUES (?, ?, ?)");
  for (const s of scrollRows) {
    s.id = newId(s.created_at);
    ins.run(s.id, s.creator, s.name, s.type, s.is_private, s.created_at, s.tag_match_type, s.included_tags, s.excluded_tags,
      s.authors, s.sort_by, s.sort_time_range, s.exclude_liked_echos, s.start_date, s.end_date);
    if (s.type !== "curation") continue;
    const n = s.name === "curation: 200 echos" ? 200 : s.name === "curation: 40 echos" ? 40 : int(60);
    const chosen = new Set();
    while (chosen.size < n) chosen.add(int(N.echos));
    for (const e of chosen) {
      const base = Math.max(times[e], s.created_at);
      insSE.run(s.id, echoIds[e], Math.floor(base + rand() * (now - base)));
    }
    scrollEchos += chosen.size;
  }
  // the names a scroll object shows are stored with it (migrations/0016_scroll_names.sql), as
  // create does: the creator's name and the rule authors' [[id, name], …]
  db.exec(`UPDATE scrolls SET creator_name = (SELECT user_name FROM users WHERE id = scrolls.creator_id)`);
  db.exec(`UPDATE scrolls SET author_names = (SELECT json_group_array(json_array(u.id, u.user_name))
    FROM json_each(scrolls.authors) j JOIN users u ON u.id = j.value) WHERE authors != '[]'`);
  const publicIdx = scrollRows.map((s, i) => (s.is_private ? -1 : i)).filter((i) => i >= 0);
  const followZ = zipf(publicIdx.length, 0.9);
  const sf = new Set();
  while (sf.size < N.scrollFollows) sf.add(publicIdx[followZ()] * N.users + int(N.users));
  const insSF = db.prepare("INSERT INTO scroll_follows (scroll_id, user_id, created_at) VALUES (?, ?, ?)");
  for (const k of sf) {
    const s = scrollRows[Math.floor(k / N.users)];
    insSF.run(s.id, userIds[k % N.users], Math.floor(s.created_at + rand() * (now - s.created_at)));
  }
  scrollFollowsWritten = sf.size;
}
db.exec("COMMIT");
phase(`scrolls: ${scrollRows.length}, scroll_echos: ${scrollEchos}, scroll_follows: ${scrollFollowsWritten}`);

// ── 5b. threads (issue 31, decision 024): replies are echos with a parent. One conversation of
// 5,000 replies under an echo from the middle of the store's time, five chains 300 deep, and 5 %
// of the other echos replying to one of the 2,000 echos before them. A separate generator, so the
// shapes drawn above and below stay those of the same seed. The reply counts are set with the
// other counters below (the insert trigger is dropped during the load).
const THREAD_REPLIES = 5_000;
const CHAINS = 5;
const CHAIN_DEPTH = 300;
const threads = {};
{
  const trand = mulberry32(SEED + 31);
  const tint = (n) => Math.floor(trand() * n);
  const parentOf = new Int32Array(N.echos).fill(-1);
  const rootOf = new Int32Array(N.echos).fill(-1);
  const used = new Set();
  const reply = (i, p) => {
    parentOf[i] = p;
    rootOf[i] = rootOf[p] >= 0 ? rootOf[p] : p;
    used.add(i);
  };
  const big = Math.floor(N.echos / 2);
  used.add(big);
  const later = (from, n) => {
    const picked = new Set();
    while (picked.size < Math.min(n, N.echos - from - 1 - used.size)) {
      const i = from + 1 + tint(N.echos - from - 1);
      if (!used.has(i)) picked.add(i);
    }
    return [...picked].sort((a, b) => a - b);
  };
  for (const i of later(big, THREAD_REPLIES)) reply(i, big);
  threads.big = { id: echoIds[big], replies: THREAD_REPLIES };
  threads.chains = [];
  for (let c = 0; c < CHAINS; c++) {
    const start = tint(Math.floor(N.echos / 4));
    if (used.has(start)) continue;
    used.add(start);
    let prev = start;
    for (const i of later(start, CHAIN_DEPTH)) {
      reply(i, prev);
      prev = i;
    }
    threads.chains.push({ root: echoIds[start], tail: echoIds[prev], depth: CHAIN_DEPTH });
  }
  let replies = THREAD_REPLIES + CHAINS * CHAIN_DEPTH;
  for (let i = 1; i < N.echos; i++) {
    if (used.has(i) || trand() >= 0.05) continue;
    reply(i, Math.max(0, i - 1 - tint(Math.min(i, 2000))));
    replies++;
  }
  db.exec("BEGIN");
  const setReply = db.prepare("UPDATE echos SET parent_id = ?, root_id = ? WHERE id = ?");
  for (let i = 0; i < N.echos; i++) if (parentOf[i] >= 0) setReply.run(echoIds[parentOf[i]], echoIds[rootOf[i]], echoIds[i]);
  db.exec("COMMIT");
  threads.replies = replies;
  phase(`threads: ${replies} replies (one conversation of ${THREAD_REPLIES}, ${threads.chains.length} chains ${CHAIN_DEPTH} deep)`);
}

// ── 5c. reposts and quotes (issue 31, decision 027). One echo reposted by 5,000 people (its
// "who reposted" pages), and about one repost per 20 echos by people drawn at random; 1 % of the
// echos quote one of the 2,000 echos before them. A separate generator, as threads'. Reposts are
// not fanned into the bench timelines (the Following scenarios keep their shape); the counts are
// set below with the others (the triggers are dropped during the load).
const reposts = {};
{
  const rrand = mulberry32(SEED + 27);
  const rint = (n) => Math.floor(rrand() * n);
  const hot = Math.floor(N.echos / 3);
  const insRepost = db.prepare("INSERT OR IGNORE INTO reposts (id, echo_id, user_id, created_at) VALUES (?, ?, ?, ?)");
  const setQuote = db.prepare("UPDATE echos SET quote_of_id = ? WHERE id = ? AND parent_id IS NULL");
  const hotAt = Number(db.prepare("SELECT created_at AS t FROM echos WHERE id = ?").get(echoIds[hot]).t);
  let written = 0;
  db.exec("BEGIN");
  const hotReposters = Math.min(5_000, N.users);
  for (let u = 0; u < hotReposters; u++) {
    const at = hotAt + 1 + rint(Math.max(1, now - hotAt - 1));
    written += insRepost.run(newId(at), echoIds[hot], userIds[u], at).changes;
  }
  // the unique (user, echo) index is dropped during the load, so OR IGNORE does not see a pair
  // drawn twice: the pairs are kept here (a small store draws the hot echo's reposters again)
  const pairs = new Set(Array.from({ length: hotReposters }, (_, u) => `${hot}:${u}`));
  for (let k = 0; k < Math.round(N.echos / 20); k++) {
    const i = rint(N.echos);
    // drawn in the order they always were: a seed's store is the same where no pair repeats
    const at = Math.min(now, Number(db.prepare("SELECT created_at AS t FROM echos WHERE id = ?").get(echoIds[i]).t) + 1 + rint(DAY));
    const u = rint(N.users);
    if (pairs.has(`${i}:${u}`)) continue;
    pairs.add(`${i}:${u}`);
    written += insRepost.run(newId(at), echoIds[i], userIds[u], at).changes;
  }
  let quotes = 0;
  for (let i = 1; i < N.echos; i++) {
    if (rrand() >= 0.01) continue;
    quotes += setQuote.run(echoIds[Math.max(0, i - 1 - rint(Math.min(i, 2000)))], echoIds[i]).changes;
  }
  db.exec("COMMIT");
  Object.assign(reposts, { hot: { id: echoIds[hot], reposts: hotReposters }, reposts: written, quotes });
  phase(`reposts: ${written} (one echo with ${hotReposters}), quotes: ${quotes}`);
}

// ── 6. counters, set-based (what the triggers would have produced) ───────────────────────────
const today = Math.floor(now / DAY);
db.exec("BEGIN");
db.exec(`
  UPDATE echos SET likes_count = c.n FROM (SELECT echo_id, COUNT(*) AS n FROM likes GROUP BY echo_id) AS c WHERE echos.id = c.echo_id;
  UPDATE echos SET shares_count = c.n FROM (SELECT echo_id, COUNT(*) AS n FROM shares GROUP BY echo_id) AS c WHERE echos.id = c.echo_id;
  UPDATE echos SET comments_count = c.n FROM (SELECT parent_id, COUNT(*) AS n FROM echos WHERE parent_id IS NOT NULL GROUP BY parent_id) AS c WHERE echos.id = c.parent_id;
  UPDATE echos SET reposts_count = c.n FROM (SELECT echo_id, COUNT(*) AS n FROM reposts GROUP BY echo_id) AS c WHERE echos.id = c.echo_id;
  UPDATE echos SET quotes_count = c.n FROM (SELECT quote_of_id, COUNT(*) AS n FROM echos WHERE quote_of_id IS NOT NULL GROUP BY quote_of_id) AS c WHERE echos.id = c.quote_of_id;
  UPDATE echo_tags SET likes_count = e.likes_count FROM echos AS e WHERE e.id = echo_tags.echo_id AND e.likes_count <> 0;
  UPDATE echo_tags SET reply = 1 FROM echos AS e WHERE e.id = echo_tags.echo_id AND e.parent_id IS NOT NULL;
  INSERT INTO tag_days (tag, day, count) SELECT tag, day, COUNT(*) FROM echo_tags GROUP BY tag, day;
  INSERT INTO tags (name, echo_count, recent_count, created_at) SELECT tag, COUNT(*), 0, 0 FROM echo_tags GROUP BY tag;
  UPDATE tags SET recent_count = c.n FROM (SELECT tag, SUM(count) AS n FROM tag_days WHERE day > ${today - 7} GROUP BY tag) AS c WHERE tags.name = c.tag;
  UPDATE users SET echos_count = c.n FROM (SELECT author_id, COUNT(*) AS n FROM echos GROUP BY author_id) AS c WHERE users.id = c.author_id;
  UPDATE users SET scrolls_count = c.n FROM (SELECT creator_id, COUNT(*) AS n FROM scrolls GROUP BY creator_id) AS c WHERE users.id = c.creator_id;
  UPDATE users SET public_scrolls_count = c.n FROM (SELECT creator_id, COUNT(*) AS n FROM scrolls WHERE is_private = 0 GROUP BY creator_id) AS c WHERE users.id = c.creator_id;
  UPDATE users SET followers_count = c.n FROM (SELECT followee_id, COUNT(*) AS n FROM user_follows GROUP BY followee_id) AS c WHERE users.id = c.followee_id;
  UPDATE users SET following_count = c.n FROM (SELECT follower_id, COUNT(*) AS n FROM user_follows GROUP BY follower_id) AS c WHERE users.id = c.follower_id;
  UPDATE scrolls SET echos_count = c.n FROM (SELECT scroll_id, COUNT(*) AS n FROM scroll_echos GROUP BY scroll_id) AS c WHERE scrolls.id = c.scroll_id;
  UPDATE scrolls SET followers_count = c.n FROM (SELECT scroll_id, COUNT(*) AS n FROM scroll_follows GROUP BY scroll_id) AS c WHERE scrolls.id = c.scroll_id;
  UPDATE stats SET value = (SELECT COUNT(*) FROM echos) WHERE key = 'echos';
`);
{
  // a tag's created_at is its first use (the service inserts the tag row with the first echo)
  const upd = db.prepare("UPDATE tags SET created_at = ? WHERE name = ?");
  for (const [t, at] of tagFirstSeen) upd.run(at, t);
}
db.exec("COMMIT");
phase("counters recomputed (set-based)");

// The echo search index (migration 0013), as its insert trigger would have written it: from the
// same view, in id order.
db.exec("BEGIN");
db.exec("INSERT INTO echo_search (body, tags, author, eid) SELECT content, tag_text, author_id, id FROM echo_search_source ORDER BY id");
// and the name search indexes (migration 0015), as their insert triggers would have
db.exec("INSERT INTO user_name_search (name, uid) SELECT user_name, id FROM users ORDER BY id");
db.exec("INSERT INTO scroll_search (name, description, sid) SELECT name, description, id FROM scrolls ORDER BY id");
db.exec("COMMIT");
phase("echo and name search indexes filled");

// What muted words match (decision 028), as migration 0027's trigger would have written it
db.exec("BEGIN");
fillMuteText(db);
db.exec("COMMIT");
phase("mute_text filled");

// The ranking pass's state as if it had just run: each popular list holds its top KEEP_RANKED
// (modules/community/ranking.server.ts, schema.ts), the change log is empty.
const KEEP_RANKED = 200;
const PERIOD_MS = { today: DAY, week: 7 * DAY, month: 30 * DAY, all: null };
const SCORE = { likes: "likes_count", comments: "comments_count", shares: "shares_count", recent: "created_at" };
db.exec("BEGIN");
for (const [period, span] of Object.entries(PERIOD_MS)) {
  for (const [sort, col] of Object.entries(SCORE)) {
    const since = span === null ? 0 : now - span;
    db.prepare(`INSERT INTO popular_echos (list, echo_id, score, created_at, author_id)
      SELECT ?, id, ${col}, created_at, author_id FROM echos WHERE created_at >= ? ORDER BY ${col} DESC, id DESC LIMIT ${KEEP_RANKED}`).run(`${period}:${sort}`, since);
  }
}
db.prepare(`INSERT INTO rank_state (key, value) VALUES ('version', 0), ('last_run', ?), ('last_day', ?)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(now, today);
db.exec("DELETE FROM rank_dirty");
db.exec("COMMIT");
phase("popular lists ranked");

// ── 7. indexes and triggers back, from the migrations' own SQL; ANALYZE ──────────────────────
for (const o of saved.filter((x) => x.type === "index")) db.exec(o.sql);
phase("indexes recreated");
for (const o of saved.filter((x) => x.type === "trigger")) db.exec(o.sql);
const schemaAfter = db.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").all();
const same = (a) => JSON.stringify(a.filter((o) => !o.name.startsWith("sqlite_stat")));
if (same(schemaBefore) !== same(schemaAfter)) throw new Error("schema after the load differs from what the migrations created");
db.exec("ANALYZE");
phase("triggers recreated (schema identical), ANALYZE");

// ── 8. checks in SQL: every counter of a sample equals a COUNT(*) ───────────────────────────
const one = (q, ...p) => Object.values(db.prepare(q).get(...p))[0];
const mismatches = [];
const check = (what, a, b) => {
  if (a !== b) mismatches.push(`${what}: counter ${a} ≠ count ${b}`);
};
check("echo_search rows", one("SELECT COUNT(*) FROM echo_search_docsize"), one("SELECT COUNT(*) FROM echos"));
check("user_name_search rows", one("SELECT COUNT(*) FROM user_name_search_docsize"), one("SELECT COUNT(*) FROM users"));
check("scroll_search rows", one("SELECT COUNT(*) FROM scroll_search_docsize"), one("SELECT COUNT(*) FROM scrolls"));
for (let i = 0; i < 200; i++) {
  const e = echoIds[int(N.echos)];
  check(`echo ${e} likes`, one("SELECT likes_count FROM echos WHERE id = ?", e), one("SELECT COUNT(*) FROM likes WHERE echo_id = ?", e));
  check(`echo_tags ${e} likes`, one("SELECT COUNT(*) FROM echo_tags et JOIN echos e ON e.id = et.echo_id WHERE et.echo_id = ? AND et.likes_count <> e.likes_count", e), 0);
  check(`echo_tags ${e} tags`, one("SELECT COUNT(*) FROM echo_tags et JOIN echos e ON e.id = et.echo_id WHERE et.echo_id = ? AND et.tags <> e.tags", e), 0);
  const u = userIds[int(N.users)];
  check(`user ${u} echos`, one("SELECT echos_count FROM users WHERE id = ?", u), one("SELECT COUNT(*) FROM echos WHERE author_id = ?", u));
  check(`user ${u} followers`, one("SELECT followers_count FROM users WHERE id = ?", u), one("SELECT COUNT(*) FROM user_follows WHERE followee_id = ?", u));
  check(`user ${u} following`, one("SELECT following_count FROM users WHERE id = ?", u), one("SELECT COUNT(*) FROM user_follows WHERE follower_id = ?", u));
  check(`user ${u} scrolls`, one("SELECT scrolls_count FROM users WHERE id = ?", u), one("SELECT COUNT(*) FROM scrolls WHERE creator_id = ?", u));
  check(`user ${u} public scrolls`, one("SELECT public_scrolls_count FROM users WHERE id = ?", u), one("SELECT COUNT(*) FROM scrolls WHERE creator_id = ? AND is_private = 0", u));
  const t = tagName(int(N.vocabulary));
  check(`tag ${t}`, one("SELECT COALESCE((SELECT echo_count FROM tags WHERE name = ?), 0)", t), one("SELECT COUNT(*) FROM echo_tags WHERE tag = ?", t));
  const s = scrollRows[int(scrollRows.length)].id;
  check(`scroll ${s} echos`, one("SELECT echos_count FROM scrolls WHERE id = ?", s), one("SELECT COUNT(*) FROM scroll_echos WHERE scroll_id = ?", s));
  check(`scroll ${s} followers`, one("SELECT followers_count FROM scrolls WHERE id = ?", s), one("SELECT COUNT(*) FROM scroll_follows WHERE scroll_id = ?", s));
}
check("reposts counted", one("SELECT SUM(reposts_count) FROM echos"), one("SELECT COUNT(*) FROM reposts"));
check("quotes counted", one("SELECT SUM(quotes_count) FROM echos"), one("SELECT COUNT(*) FROM echos WHERE quote_of_id IS NOT NULL"));
check("stats echos", one("SELECT value FROM stats WHERE key = 'echos'"), one("SELECT COUNT(*) FROM echos"));
check("tags orphans", one("SELECT COUNT(*) FROM tags WHERE echo_count <= 0"), 0);
check("echos without mute_text", one("SELECT COUNT(*) FROM echos WHERE mute_text IS NULL"), 0);
check("tag_days total", one("SELECT SUM(count) FROM tag_days"), one("SELECT COUNT(*) FROM echo_tags"));
if (mismatches.length) throw new Error(`counter mismatches:\n${mismatches.slice(0, 20).join("\n")}`);

// What the benchmark needs to know about this store.
const counts = {};
for (const t of ["users", "echos", "echo_tags", "tags", "likes", "scrolls", "scroll_echos", "scroll_follows", "user_follows", "tag_days", "popular_echos", "timeline_entries", "reposts"]) {
  counts[t] = one(`SELECT COUNT(*) FROM ${t}`);
}
const heavyLiker = db.prepare("SELECT u.user_name AS name, u.id, COUNT(*) AS n FROM likes l JOIN users u ON u.id = l.user_id GROUP BY l.user_id ORDER BY n DESC LIMIT 1").get();
const hotTag = db.prepare("SELECT name, echo_count FROM tags ORDER BY echo_count DESC LIMIT 1").get();
const coldTag = db.prepare("SELECT name, echo_count FROM tags WHERE echo_count >= 20 ORDER BY echo_count, name LIMIT 1").get();
const topAuthor = db.prepare("SELECT user_name AS name, id, echos_count FROM users ORDER BY echos_count DESC LIMIT 1").get();
const likedEcho = db.prepare("SELECT id, likes_count FROM echos ORDER BY likes_count DESC LIMIT 1").get();
const likeShare = db.prepare(`SELECT
  (SELECT COUNT(*) FROM echos WHERE likes_count > 0) AS liked,
  (SELECT SUM(likes_count) FROM (SELECT likes_count FROM echos ORDER BY likes_count DESC LIMIT ${Math.ceil(N.echos / 100)})) AS top1pct`).get();
const sizeMb = Number(one("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")) / 1e6;
db.exec(`PRAGMA journal_mode = ${journal}`);
db.close();
phase(`sample checks in SQL (1,800 counters), size ${sizeMb.toFixed(0)} MB`);

const meta = {
  builtAt: new Date(now).toISOString(),
  scale: SCALE,
  seed: SEED,
  password: PASSWORD,
  userNamePattern: "bench<N>",
  users: N.users,
  counts,
  sizeMb: Math.round(sizeMb),
  likeSkew: { echosWithLikes: likeShare.liked, likesOnTop1PctEchos: likeShare.top1pct },
  hotTag,
  coldTag,
  heavyLiker,
  topAuthor,
  mostLikedEcho: likedEcho,
  threads,
  reposts,
  scrolls: Object.fromEntries(Object.entries(namedIndex).map(([label, i]) => [label, scrollRows[i].id])),
  following,
  sampleEchoIds: Array.from({ length: 50 }, () => echoIds[int(N.echos)]),
};

// ── 9. the sample against the services: the production build on this store ──────────────────
if (!existsSync(path.join(root, "build", "echos", "server"))) await buildVerticals();
phaseStart = Date.now();
const server = await startServer({
  port: PORT,
  stateDir: dir,
  // the feed indexes are built below through the scheduled repair pass: it keys this many feeds a pass
  vars: { EXPOSE_D1_STATS: "1", AUTH_IP_LIMIT_PER_MINUTE: "1000000", FEED_INDEX_KEYS_PER_PASS: "1000" },
});
try {
  phase("server started on the store");
  let cookie = "";
  const call = async (method, p, body) => {
    const res = await fetch(server.baseUrl + p, {
      method,
      headers: { ...(body ? { "Content-Type": "application/json" } : {}), ...(cookie ? { Cookie: cookie } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    // answers also set the D1 bookmark cookie (decision 017): keep the session one
    const set = res.headers.getSetCookie().find((c) => /^(__Host-)?echo_session=/.test(c));
    if (set) cookie = set.split(";")[0];
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const login = await call("POST", "/api/auth/login", { userName: "bench7", password: PASSWORD });
  const verify = new DatabaseSync(dbFile, { readOnly: true });
  const count = (q, ...p) => Object.values(verify.prepare(q).get(...p))[0];
  const expect = (what, api, sqlCount) => {
    if (api !== sqlCount) mismatches.push(`${what}: API ${api} ≠ SQLite ${sqlCount}`);
  };
  let checked = 0;
  for (const who of [topAuthor.id, login._id, userIds[int(N.users)], userIds[int(N.users)]]) {
    const profile = await call("GET", `/api/profile/user/${who}`);
    const p = profile.user ?? profile;
    const list = await call("GET", `/api/echo/all?user=${who}&limit=5`);
    const n = count("SELECT COUNT(*) FROM echos WHERE author_id = ?", who);
    expect(`profile ${who} echosCount`, p.echosCount, n);
    expect(`/api/echo/all?user=${who} total`, list.pagination.total, n);
    expect(`profile ${who} followersCount`, p.followersCount, count("SELECT COUNT(*) FROM user_follows WHERE followee_id = ?", who));
    checked += 3;
  }
  for (const id of [likedEcho.id, ...meta.sampleEchoIds.slice(0, 10)]) {
    const r = await call("GET", `/api/echo/echo/${id}`);
    expect(`echo ${id} likes`, (r.echo ?? r).likes, count("SELECT COUNT(*) FROM likes WHERE echo_id = ?", id));
    checked++;
  }
  for (const t of [hotTag.name, coldTag.name]) {
    const r = await call("GET", `/api/echo/tag/${t}?limit=5`);
    expect(`tag ${t} total`, r.pagination.total, count("SELECT COUNT(*) FROM echo_tags WHERE tag = ?", t));
    checked++;
  }
  const cur = meta.scrolls["curation: 200 echos"];
  const sc = await call("GET", `/api/scroll/${cur}`);
  expect(`scroll ${cur} echosCount`, (sc.scroll ?? sc).echosCount, count("SELECT COUNT(*) FROM scroll_echos WHERE scroll_id = ?", cur));
  checked++;
  const all = await call("GET", "/api/echo/all?limit=1");
  expect("/api/echo/all total", all.pagination.total, count("SELECT COUNT(*) FROM echos"));
  checked++;
  // the triggers are live again: a post, a like, an unlike and a delete move the counters
  const before = count("SELECT echos_count FROM users WHERE id = ?", login._id);
  const posted = await call("POST", "/api/echo/post", { content: "bench:data trigger check", tags: [hotTag.name] });
  const echoId = (posted.echo ?? posted)._id;
  expect("post → users.echos_count", count("SELECT echos_count FROM users WHERE id = ?", login._id), before + 1);
  const liked = await call("POST", `/api/echo/like/${echoId}`);
  expect("like → likes", liked.likes, 1);
  expect("like → echo_tags.likes_count", count("SELECT likes_count FROM echo_tags WHERE echo_id = ?", echoId), 1);
  const unliked = await call("DELETE", `/api/echo/like/${echoId}`);
  expect("unlike → likes", unliked.likes, 0);
  const found = await call("GET", "/api/search/echos?q=trigger%20check");
  expect("post → search finds it", found.echos.map((e) => e._id).join(), echoId);
  await call("DELETE", `/api/echo/delete/${echoId}`);
  expect("delete → users.echos_count", count("SELECT echos_count FROM users WHERE id = ?", login._id), before);
  expect("delete → stats", count("SELECT value FROM stats WHERE key = 'echos'"), counts.echos);
  expect("delete → search index", count("SELECT COUNT(*) FROM echo_search_docsize"), counts.echos);
  checked += 8;
  verify.close();
  if (mismatches.length) throw new Error(`service check failed:\n${mismatches.join("\n")}`);
  phase(`service check: ${checked} counters via the API match SQLite`);

  // ── 10. the feed indexes (decision 020), built as a deployed store builds them
  // (scripts/feed-indexes.mjs); the store is usable without them, so its meta is written first
  writeFileSync(path.join(dir, "bench-meta.json"), JSON.stringify({ ...meta, phases }, null, 2));
  meta.feedIndexes = await buildFeedIndexes(server.baseUrl, dbFile, (line) => console.log(line));
  phase(`feed indexes: ${meta.feedIndexes.indexes} (${meta.feedIndexes.complete} complete), ${meta.feedIndexes.entries} entries`);
} finally {
  await server.stop();
}

meta.phases = phases;
meta.buildSeconds = (Date.now() - t0) / 1000;
writeFileSync(path.join(dir, "bench-meta.json"), JSON.stringify(meta, null, 2));
console.log(`bench:data done in ${meta.buildSeconds.toFixed(1)} s: ${JSON.stringify(counts)}`);
