// The heavy hider's other lists, measured over a whole generated store (issue 32; decision 026,
// "Filling a short page"): bench:feeds (FEEDS_HIDER=1) measures every feed; this measures every
// other paged list the same reader reads. The hider is bench-hider.mjs's (1,000 blocks among the
// most prolific authors, a mute, a blocker, 100 muted words), set up through the API; so that
// Home's Following has something to show, it follows LISTS_FOLLOWS (200) of the most prolific
// authors it does not hide, through the API too. Then, as the hider:
// - Home's Following, All echos; every tag with ≥ LISTS_TAG_MIN (20) echos, newest first, and the
//   LISTS_LIKED (30) largest also most liked; a search for each word of the store's vocabulary
//   (the words of its newest 2,000 echos); the echos of the first LISTS_PROFILES (100) authors it
//   follows; its notifications — LISTS_ACTIVITY (default 1) first gives the hider echos and
//   notifications, once per store, through the API: it posts 20 echos; 60 authors it follows and
//   sees like them and mention it (every other mention holding a word it mutes), and a last run of
//   LISTS_MUTED_MENTIONS (80) mentions holding a muted word makes its newest notifications hidden;
//   the muted author likes and mentions it too (no notification is written for a hidden actor);
// - each list's first page (limit 20) once; for the first LISTS_DEPTH (200) lists of each kind,
//   pages 2..LISTS_PAGES (5) by cursor and by number (where the list has numbers); Following and
//   the notifications by cursor to their end (LISTS_WALK, 30 pages; Following's timeline holds 500);
// and counts, per page: echos, whether it is full (20, or the list ended), rows read and round
// trips (Server-Timing), and echos the hider must not see. A short first page with more is
// followed by cursor until a page shows an echo: none, and it was the list's end (every echo the
// hider may see, then an empty last page). Prints the share of first pages full, short pages with
// more to come, and the rows' distribution; writes LISTS_REPORT (default
// <STATE_DIR>/bench-hider-lists.json).
//
// Env: STATE_DIR (a copy of a bench store: the hider's blocks are written into it), BENCH_PORT
// (8891), LIST_FILL=0 (the server sends no filling round trip: the before), LISTS_CONCURRENCY (4).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { root } from "./lib.mjs";
import { buildVerticals } from "./build.mjs";
import { startServer } from "./server.mjs";
import { leaks, pickHider, setUpHider } from "./bench-hider.mjs";
import { prober, sessionSecret, writeSessions } from "./bench-session.mjs";

const env = (name, fallback) => Number(process.env[name] || fallback);
const dir = path.resolve(root, process.env.STATE_DIR || "bench-state");
const PORT = env("BENCH_PORT", "8891");
const FOLLOWS = env("LISTS_FOLLOWS", "200");
const TAG_MIN = env("LISTS_TAG_MIN", "20");
const LIKED = env("LISTS_LIKED", "30");
const PROFILES = env("LISTS_PROFILES", "100");
const DEPTH = env("LISTS_DEPTH", "200");
const PAGES = env("LISTS_PAGES", "5");
const CONCURRENCY = env("LISTS_CONCURRENCY", "4");
const ACTIVITY = env("LISTS_ACTIVITY", "1") === 1;
const MUTED_MENTIONS = env("LISTS_MUTED_MENTIONS", "80");
const WALK = env("LISTS_WALK", "30");
const ACTORS = 60;
const LIMIT = 20;
const out = path.resolve(root, process.env.LISTS_REPORT || path.join(dir, "bench-hider-lists.json"));

if (!existsSync(path.join(dir, "bench-meta.json"))) throw new Error(`no benchmark store at ${dir}`);
if (!existsSync(path.join(root, "build", "echos", "server"))) await buildVerticals();
const secret = await sessionSecret();

// ── the hider, what it follows, and the lists ─────────────────────────────────────────────────
const d1Dir = path.join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
const db = new DatabaseSync(path.join(d1Dir, readdirSync(d1Dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")));
const plan = pickHider(db);
const hidden = new Set([...plan.blocked, plan.muted, plan.blocker, plan.hider.id]);
const follows = db
  .prepare("SELECT id FROM users ORDER BY echos_count DESC, id LIMIT ?")
  .all(FOLLOWS + hidden.size)
  .map((r) => r.id)
  .filter((id) => !hidden.has(id))
  .slice(0, FOLLOWS);
const followed = new Set(db.prepare("SELECT followee_id AS id FROM user_follows WHERE follower_id = ?").all(plan.hider.id).map((r) => r.id));
// a hider that already follows its LISTS_FOLLOWS keeps them (LISTS_ACTIVITY's posts move echo counts)
if (followed.size >= FOLLOWS) follows.splice(0, follows.length, ...follows.filter((id) => followed.has(id)), ...[...followed].filter((id) => !follows.includes(id)));
const tags = db.prepare("SELECT name FROM tags WHERE echo_count >= ? ORDER BY echo_count DESC, name").all(TAG_MIN).map((r) => r.name);
// (the store's own echos: the ones LISTS_ACTIVITY writes do not change the searches of a later run)
const builtAt = Date.parse(JSON.parse(readFileSync(path.join(dir, "bench-meta.json"), "utf8")).builtAt);
const vocabulary = [...new Set(db.prepare("SELECT content FROM echos WHERE created_at <= ? ORDER BY id DESC LIMIT 2000").all(builtAt).flatMap((r) => r.content.toLowerCase().match(/[a-z]{3,}/g) ?? []))].sort();
// (the activity is set up once per store: the hider's notifications say it was)
const hiderEchos = db.prepare("SELECT id FROM echos WHERE author_id = ? AND parent_id IS NULL ORDER BY id").all(plan.hider.id).map((r) => r.id);
const activity = ACTIVITY && db.prepare("SELECT count(*) AS n FROM notification_groups WHERE recipient_id = ?").get(plan.hider.id).n === 0;
const actors = follows.slice(0, ACTORS);
const cookies = await writeSessions(db, [plan.hider.id, plan.blocker, ...(activity ? [...actors, plan.muted] : [])], secret);
db.close();
const q = encodeURIComponent;
/** Each list: its kind, its first page's path (limit 20), whether it pages by number. */
const lists = [
  { kind: "Following", path: "/api/echo/following", numbered: true, walk: true },
  { kind: "All echos", path: "/api/echo/all", numbered: true },
  ...tags.map((t) => ({ kind: "tag, newest", path: `/api/echo/tag/${q(t)}`, numbered: true })),
  ...tags.slice(0, LIKED).map((t) => ({ kind: "tag, most liked", path: `/api/echo/tag/${q(t)}?orderBy=likes`, numbered: true })),
  ...vocabulary.map((w) => ({ kind: "search", path: `/api/search/echos?q=${q(w)}`, numbered: true })),
  // (a profile is no muted-word context, decision 028: only a hidden author would be a leak there)
  ...follows.slice(0, PROFILES).map((id) => ({ kind: "profile", path: `/api/profile/user/${id}/echos`, numbered: true, authorsOnly: true })),
  { kind: "notifications", path: "/api/notifications", numbered: false, walk: true },
];

// ── the server, the hider's set-up ─────────────────────────────────────────────────────────────
const fill = process.env.LIST_FILL === "0" ? { LIST_FILL: "0" } : {};
const server = await startServer({ port: PORT, stateDir: dir, vars: { EXPOSE_D1_STATS: "1", AUTH_IP_LIMIT_PER_MINUTE: "1000000", ...fill } });
const base = server.baseUrl;
const probe = prober(base);
const hider = cookies.get(plan.hider.id);
const results = [];
const t0 = Date.now();
try {
  const send = async (userId, method, p, body) => {
    const res = await fetch(base + p, { method, headers: { Cookie: cookies.get(userId), ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
    await res.arrayBuffer();
    return res.status;
  };
  await setUpHider(plan, send);
  if (activity) await setUpActivity(send);
  for (const id of follows.filter((f) => !followed.has(f))) {
    const status = await send(plan.hider.id, "POST", `/api/profile/user/${id}/follow`);
    if (status !== 200) throw new Error(`follow ${id}: ${status}`);
  }
  console.log(`bench-hider-lists: hider ${plan.hider.user_name} (${plan.blocked.length} blocked, 100 words, follows ${follows.length}); ${lists.length} lists${fill.LIST_FILL ? ", LIST_FILL=0" : ""}`);

  const page = async (p, jar, authorsOnly = false) => {
    const r = await probe(hider, p, jar);
    if (r.status !== 200) return { status: r.status, rows: r.rows, rt: r.rt, echos: 0 };
    const items = r.json.echos ?? r.json.groups ?? r.json.notifications ?? [];
    if (r.json.notifications) return { rows: r.rows, rt: r.rt, echos: items.length, more: Boolean(r.json.pagination?.nextCursor), cursor: r.json.pagination?.nextCursor ?? null, leaks: noticeLeaks(items) };
    const more = Boolean(r.json.pagination?.nextCursor ?? r.json.nextCursor);
    return { rows: r.rows, rt: r.rt, echos: items.length, more, cursor: r.json.pagination?.nextCursor ?? r.json.nextCursor ?? null, leaks: !r.json.echos ? 0 : authorsOnly ? r.json.echos.filter((e) => hidden.has(e.author?._id)).length : leaks(plan, r.json.echos) };
  };
  const withQuery = (p, extra) => `${p}${p.includes("?") ? "&" : "?"}${extra}`;
  const depthOf = new Map();
  const queue = [...lists];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let l = queue.shift(); l; l = queue.shift()) {
        const deep = (depthOf.get(l.kind) ?? 0) < DEPTH;
        depthOf.set(l.kind, (depthOf.get(l.kind) ?? 0) + 1);
        const byCursor = [await page(withQuery(l.path, `limit=${LIMIT}`), null, l.authorsOnly)];
        for (let n = 2; deep && n <= (l.walk ? WALK : PAGES) && byCursor[n - 2].cursor; n++) {
          byCursor.push(await page(withQuery(l.path, `limit=${LIMIT}&page=${n}&cursor=${q(byCursor[n - 2].cursor)}`), null, l.authorsOnly));
        }
        // a first page short with more: was more to see? (the cursor followed until a page shows an
        // echo or the list ends: none, and the short page was the list's end — decision 026's empty last page)
        if (byCursor[0].echos < LIMIT && byCursor[0].more) {
          let at = byCursor[byCursor.length - 1];
          for (let n = byCursor.length + 1; n <= 6 && at.cursor && byCursor.slice(1).every((p) => p.echos === 0); n++) {
            byCursor.push((at = await page(withQuery(l.path, `limit=${LIMIT}&page=${n}&cursor=${q(at.cursor)}`), null, l.authorsOnly)));
          }
          byCursor[0].moreShown = byCursor.slice(1).some((p) => p.echos > 0);
        }
        const byNumber = [];
        const jar = new Map();
        for (let n = 1; deep && l.numbered && n <= PAGES && (n === 1 || byNumber[n - 2].more); n++) byNumber.push(await page(withQuery(l.path, `limit=${LIMIT}&page=${n}`), jar, l.authorsOnly));
        results.push({ ...l, byCursor, byNumber });
        if (results.length % 500 === 0) console.log(`  ${results.length}/${lists.length} lists (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      }
    }),
  );
} finally {
  await server.stop();
}

/**
 * The hider's echos and what others do with them (LISTS_ACTIVITY), through the API as users would:
 * likes and mentions from authors it sees, half the mentions holding a word it mutes, then a run
 * of muted-word mentions (its newest notifications, all hidden), and the muted author's likes and
 * mentions (never written: a hidden actor's notification is not inserted).
 */
async function setUpActivity(send) {
  const must = async (who, method, p, body, want = 200) => {
    const status = await send(who, method, p, body);
    if (status !== want) throw new Error(`activity: ${method} ${p}: ${status}`);
  };
  const ids = [...hiderEchos];
  for (let i = ids.length; i < 20; i++) {
    const res = await fetch(base + "/api/echo/post", { method: "POST", headers: { Cookie: cookies.get(plan.hider.id), "Content-Type": "application/json" }, body: JSON.stringify({ content: `hider echo ${i}`, tags: [] }) });
    if (res.status !== 201) throw new Error(`activity: post: ${res.status}`);
    ids.push((await res.json()).echo._id);
  }
  const word = plan.words[0];
  const name = plan.hider.user_name;
  for (let i = 0; i < actors.length; i += 6) {
    await Promise.all(
      actors.slice(i, i + 6).map(async (a, j) => {
        await must(a, "POST", `/api/echo/like/${ids[(i + j) % ids.length]}`);
        await must(a, "POST", "/api/echo/post", { content: `hello @${name} ${(i + j) % 2 ? word : "tea"} ${i + j}`, tags: [] }, 201);
      }),
    );
  }
  await must(plan.muted, "POST", `/api/echo/like/${ids[0]}`);
  await must(plan.muted, "POST", "/api/echo/post", { content: `muted says hi @${name}`, tags: [] }, 201);
  for (let i = 0; i < MUTED_MENTIONS; i += 6) {
    await Promise.all(Array.from({ length: Math.min(6, MUTED_MENTIONS - i) }, (_, j) => must(actors[(i + j) % actors.length], "POST", "/api/echo/post", { content: `late @${name} ${word} ${i + j}`, tags: [] }, 201)));
  }
}

/** What the hider must not see in a notification: a hidden actor, or an echo holding a muted word. */
function noticeLeaks(items) {
  const hiddenIds = new Set([...plan.blocked, plan.muted, plan.blocker]);
  const words = plan.words.map((w) => new RegExp(`\\b${w}\\b`, "i"));
  return items.filter((n) => hiddenIds.has(n.actor?._id) || words.some((w) => w.test(n.echo?.excerpt ?? ""))).length;
}

// ── the report ───────────────────────────────────────────────────────────────────────────────
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)} %` : "—");
const quantile = (xs, p) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] : null);
const full = (p) => p.status === undefined && (p.echos >= LIMIT || !p.more);
// short, and echos to see after it: what the fill is for (the rest are the list's honest end)
const trulyShort = (p) => !full(p) && p.moreShown !== false;
const summary = {};
for (const kind of [...new Set(lists.map((l) => l.kind))]) {
  const of = results.filter((r) => r.kind === kind);
  const firsts = of.map((r) => r.byCursor[0]);
  const pages = of.flatMap((r) => [...r.byCursor, ...r.byNumber.slice(1)]);
  const rows = pages.map((p) => p.rows ?? 0);
  summary[kind] = {
    lists: of.length,
    firstFull: firsts.filter(full).length,
    firstEnded: firsts.filter((p) => !full(p) && p.moreShown === false).length,
    firstShort: firsts.filter(trulyShort).length,
    pages: pages.length,
    shortWithMore: pages.filter((p) => !full(p)).length,
    emptyWithMore: pages.filter((p) => p.echos === 0 && p.more).length,
    refused: pages.filter((p) => p.status !== undefined).length,
    rows: { median: quantile(rows, 0.5), p99: quantile(rows, 0.99), max: Math.max(0, ...rows) },
    over200: rows.filter((n) => n > 200).length,
    maxRt: Math.max(0, ...pages.map((p) => p.rt ?? 0)),
    twoRt: pages.filter((p) => p.rt === 2).length,
    leaks: pages.reduce((n, p) => n + (p.leaks ?? 0), 0),
  };
}
console.log("| list | lists | first page full | short, nothing after | short, more to see | pages | short with more (empty) | rows median / p99 / max | > 200 | max rt (pages at 2) | hidden shown |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const [kind, s] of Object.entries(summary)) {
  console.log(`| ${kind} | ${s.lists} | ${s.firstFull} (${pct(s.firstFull, s.lists)}) | ${s.firstEnded} | ${s.firstShort} | ${s.pages} | ${s.shortWithMore} (${s.emptyWithMore}) | ${s.rows.median} / ${s.rows.p99} / ${s.rows.max} | ${s.over200} | ${s.maxRt} (${s.twoRt}) | ${s.leaks} |`);
}
const all = Object.values(summary);
const firstFull = all.reduce((n, s) => n + s.firstFull, 0);
const firstEnded = all.reduce((n, s) => n + s.firstEnded, 0);
const listCount = all.reduce((n, s) => n + s.lists, 0);
console.log(`first pages full: ${firstFull} of ${listCount} (${pct(firstFull, listCount)}), or all there was to see: ${firstFull + firstEnded} (${pct(firstFull + firstEnded, listCount)}); ${((Date.now() - t0) / 1000).toFixed(0)} s`);
writeFileSync(out, JSON.stringify({ startedAt: new Date(t0).toISOString(), fill: !fill.LIST_FILL, share: plan.share, summary, results }, null, 1));
console.log(`report: ${out}`);
