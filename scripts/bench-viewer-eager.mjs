// Viewer indexes made on like, on a benchmark store (issue 27, decision 033 "Made on like").
// 1. Counts, from the store (read only), the (reader, rule) pairs whose likes make a run of a
//    hide-liked rule's shared index too dense for a page — RUN (51) consecutive entries holding
//    fewer than a screen (20) the reader did not like, as the consumer's check sees it — i.e. what
//    making on like would have made had every like of the store come through it; and their storage
//    (VIEWER_CAP entries at most each, ~139 bytes an entry with its echo index: decision 033).
// 2. With BENCH_URL (a server of this build serving the same store): for each pair (at most 8 a
//    reader, none evicting), one of the reader's likes inside the dense run goes through the app
//    again — unlike, like — so its message reaches the consumer, which makes the index; then waits
//    for the queue and counts the viewer indexes made. The store keeps the same likes.
// Env: STATE_DIR (the store), BENCH_URL, READERS (user names: only their pairs are replayed).
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SignJWT } from "jose";
import { root } from "./lib.mjs";

const RUN = 51;
const SCREEN = 20;
const CAP = 2000;
const PER_VIEWER = 8;
const ENTRY_BYTES = 139;
const WINDOW_MS = { "1day": 86_400_000, "1month": 30 * 86_400_000, "1year": 365 * 86_400_000 };
const dir = path.resolve(root, process.env.STATE_DIR || "bench-state");
const d1Dir = path.join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
const file = path.join(d1Dir, readdirSync(d1Dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite"));
const db = new DatabaseSync(file, { readOnly: !process.env.BENCH_URL });

const lowerBound = (list, x) => {
  let lo = 0;
  for (let hi = list.length; lo < hi; ) {
    const m = (lo + hi) >> 1;
    if (list[m] < x) lo = m + 1;
    else hi = m;
  }
  return lo;
};
const made = () =>
  db.prepare(`SELECT count(*) AS n, sum((SELECT count(*) FROM feed_index_entries WHERE index_id = feed_indexes.id)) AS entries FROM feed_indexes WHERE rule_key LIKE 'v:%' AND (floor IS NOT NULL OR complete = 1)`).get();
const before = made();
const t0 = Date.now();
const indexes = db
  .prepare(
    `SELECT fi.id, fi.rule_key FROM feed_indexes fi WHERE fi.viewer_id IS NULL AND fi.state = 'ready'
       AND EXISTS (SELECT 1 FROM scrolls s WHERE s.rule_key = fi.rule_key AND s.exclude_liked_echos = 1)`,
  )
  .all();
const pairs = [];
for (const index of indexes) {
  const rule = JSON.parse(index.rule_key);
  const order = rule.sortBy === "oldestFirst" ? "rank ASC, echo_id ASC" : "rank DESC, echo_id DESC";
  // a windowed rule's entries that aged out (the repair pass removes them) are skipped by its pages
  const windowed = rule.sortBy === "mostLiked" && rule.sortTimeRange !== "allTime";
  const since = windowed ? Date.now() - WINDOW_MS[rule.sortTimeRange] : 0;
  const entries = db
    .prepare(`SELECT ie.echo_id FROM feed_index_entries ie JOIN echos e ON e.id = ie.echo_id WHERE ie.index_id = ? AND e.created_at >= ? ORDER BY ${order.replaceAll("rank", "ie.rank").replaceAll("echo_id", "ie.echo_id")}`)
    .all(index.id, since)
    .map((r) => r.echo_id);
  const at = new Map(entries.map((id, i) => [id, i]));
  const byUser = new Map();
  for (const { echo_id, user_id } of db.prepare(`SELECT ie.echo_id, l.user_id FROM feed_index_entries ie JOIN likes l ON l.echo_id = ie.echo_id WHERE ie.index_id = ?`).iterate(index.id)) {
    const list = byUser.get(user_id) ?? [];
    if (!at.has(echo_id)) continue;
    list.push(at.get(echo_id));
    byUser.set(user_id, list);
  }
  for (const [userId, positions] of byUser) {
    if (positions.length < RUN - SCREEN + 1) continue;
    positions.sort((a, b) => a - b);
    // a whole run [s, s + RUN) holding more than RUN - SCREEN liked: one starting at a liked entry, or ending at the last
    let found = null;
    for (const p of positions) {
      const s = Math.min(p, entries.length - RUN);
      if (s < 0) break;
      const a = lowerBound(positions, s);
      if (lowerBound(positions, s + RUN) - a > RUN - SCREEN) {
        found = entries[positions[a]];
        break;
      }
    }
    if (found) pairs.push({ userId, indexId: index.id, ruleKey: index.rule_key, echoId: found, unliked: entries.length - positions.length });
  }
}
const users = new Map();
for (const p of pairs) users.set(p.userId, [...(users.get(p.userId) ?? []), p]);
const kept = [...users.values()].flatMap((list) => list.slice(0, PER_VIEWER));
const entriesOf = (list) => list.reduce((n, p) => n + Math.min(CAP, p.unliked), 0);
const names = new Map(db.prepare(`SELECT id, user_name FROM users WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify([...users.keys()])).map((u) => [u.id, u.user_name]));
console.log(`hide-liked shared indexes: ${indexes.length}; (reader, rule) pairs too dense: ${pairs.length}, readers ${users.size} (read in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
console.log(`  at most ${PER_VIEWER} a reader: ${kept.length} viewer indexes, ${entriesOf(kept)} entries ≈ ${((entriesOf(kept) * ENTRY_BYTES) / 1e6).toFixed(2)} MB`);
for (const [userId, list] of [...users].sort((a, b) => b[1].length - a[1].length).slice(0, 10)) console.log(`  ${names.get(userId) ?? userId}: ${list.length} rules`);

if (process.env.BENCH_URL) {
  const readers = process.env.READERS ? new Set(process.env.READERS.split(",")) : null;
  const replay = kept.filter((p) => !readers || readers.has(names.get(p.userId)));
  const secret = /^SESSION_SECRET=(.*)$/m.exec(readFileSync(path.join(root, ".dev.vars"), "utf8"))?.[1]?.trim();
  const key = new TextEncoder().encode(secret);
  const now = Date.now();
  const cookies = new Map();
  for (const userId of new Set(replay.map((p) => p.userId))) {
    const sid = randomBytes(13).toString("hex");
    db.prepare("INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, NULL)").run(sid, userId, now, now, now + 86_400_000);
    const token = await new SignJWT({ sid }).setProtectedHeader({ alg: "HS256" }).setSubject(userId).setIssuer("echo").setIssuedAt(Math.floor(now / 1000)).setExpirationTime(Math.floor((now + 86_400_000) / 1000)).sign(key);
    cookies.set(userId, `echo_session=${encodeURIComponent(btoa(JSON.stringify(token)))}`);
  }
  for (const p of replay) {
    for (const method of ["DELETE", "POST"]) {
      const res = await fetch(`${process.env.BENCH_URL}/api/echo/like/${p.echoId}`, { method, headers: { Cookie: cookies.get(p.userId), Origin: process.env.BENCH_URL } });
      if (res.status !== 200) throw new Error(`${method} like ${p.echoId}: ${res.status} ${await res.text()}`);
    }
  }
  for (let i = 0; i < 120 && made().n < before.n + replay.length; i++) await new Promise((r) => setTimeout(r, 1000));
  const got = made();
  console.log(`replayed ${replay.length} likes (unlike, like); hide-liked viewer indexes reaching anywhere: ${before.n} before, ${got.n} after (${got.entries ?? 0} entries)`);
}
db.close();
