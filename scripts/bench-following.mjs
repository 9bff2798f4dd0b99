// The Following timeline in the benchmark store (issue 18, docs/decisions/013-following-timeline.md).
// `npm run bench:data` calls addFollowing() on its load; run on its own (`STATE_DIR=… node
// scripts/bench-following.mjs`) it adds the same to a store built before the timeline existed,
// once its migration is applied (scripts/migrate.mjs).
//
// Two readers join the store's 200,000 follows: the second-to-last bench user follows 5,000
// accounts (every tenth user: from the most prolific authors to near-silent ones), the last one
// follows only 5 near-silent authors whose echos are all old (the worst case for a merge of streams).
// Then every follow gets what the services give it: the followee's newest FOLLOW_BACKFILL echos
// in the follower's timeline, each timeline cut to its newest TIMELINE_CAP entries.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import { root } from "./lib.mjs";

// modules/echo/timeline.server.ts (scripts may not import a module)
const FOLLOW_BACKFILL = 20;
const TIMELINE_CAP = 500;
const WIDE_FOLLOWS = 5000;
const QUIET_FOLLOWS = 5;

/**
 * Adds the two readers' follows and fills timeline_entries for every follow in the store. Works
 * with the load's indexes dropped (bench:data: counters are recomputed afterwards) or on a live
 * store (its triggers keep the follow counters exact). `idOf(i)` is the id of user bench<i>.
 * Returns what bench.mjs needs.
 */
export function addFollowing(db, { users, idOf, now = Date.now() }) {
  const wide = { name: `bench${users - 2}`, id: idOf(users - 2) };
  const quiet = { name: `bench${users - 1}`, id: idOf(users - 1) };
  const follow = db.prepare("INSERT OR IGNORE INTO user_follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)");
  db.exec("BEGIN");
  let n = 0;
  for (let i = 0; n < WIDE_FOLLOWS && i < users - 2; i += Math.max(1, Math.floor((users - 2) / WIDE_FOLLOWS)), n++) {
    follow.run(wide.id, idOf(i), now);
  }
  // near-silent authors whose newest echo is over a year old
  const silent = db
    .prepare(`SELECT author_id, COUNT(*) AS n, MAX(created_at) AS newest FROM echos GROUP BY author_id
      HAVING n <= 2 AND newest < ? ORDER BY newest LIMIT ${QUIET_FOLLOWS}`)
    .all(now - 365 * 86_400_000);
  for (const s of silent) follow.run(quiet.id, s.author_id, now);
  // and no one else: the quiet reader's timeline holds only their few old echos
  db.prepare("DELETE FROM user_follows WHERE follower_id = ? AND followee_id NOT IN (SELECT value FROM json_each(?))")
    .run(quiet.id, JSON.stringify(silent.map((s) => s.author_id)));
  db.exec("COMMIT");

  // every follow's backfill, set-based; then each timeline's newest TIMELINE_CAP
  db.exec("BEGIN");
  db.exec("DELETE FROM timeline_entries");
  db.exec(`INSERT INTO timeline_entries (owner_id, echo_id)
    SELECT f.follower_id, e.id FROM user_follows f
    JOIN (SELECT id, author_id, ROW_NUMBER() OVER (PARTITION BY author_id ORDER BY id DESC) AS rn FROM echos) e
      ON e.author_id = f.followee_id AND e.rn <= ${FOLLOW_BACKFILL}`);
  db.exec(`DELETE FROM timeline_entries WHERE (owner_id, echo_id) IN (SELECT owner_id, echo_id FROM (
    SELECT owner_id, echo_id, ROW_NUMBER() OVER (PARTITION BY owner_id ORDER BY echo_id DESC) AS rn FROM timeline_entries) WHERE rn > ${TIMELINE_CAP})`);
  db.exec("COMMIT");
  const entries = (owner) => db.prepare("SELECT COUNT(*) AS n FROM timeline_entries WHERE owner_id = ?").get(owner).n;
  return {
    wideFollower: { ...wide, follows: n, timelineEntries: entries(wide.id) },
    quietFollower: { ...quiet, follows: silent.length, timelineEntries: entries(quiet.id) },
    timelineEntries: db.prepare("SELECT COUNT(*) AS n FROM timeline_entries").get().n,
  };
}

// On its own: an existing store (STATE_DIR, default bench-state/) with migration 0012 applied.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(root, process.env.STATE_DIR || "bench-state");
  const metaFile = path.join(dir, "bench-meta.json");
  if (!existsSync(metaFile)) throw new Error(`no benchmark store at ${dir}`);
  const meta = JSON.parse(readFileSync(metaFile, "utf8"));
  const d1dir = path.join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(d1dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  const db = new DatabaseSync(path.join(d1dir, file));
  const t = Date.now();
  const byName = db.prepare("SELECT id FROM users WHERE user_name = ?");
  meta.following = addFollowing(db, { users: meta.users, idOf: (i) => byName.get(`bench${i}`).id });
  meta.counts.user_follows = db.prepare("SELECT COUNT(*) AS n FROM user_follows").get().n;
  meta.counts.timeline_entries = meta.following.timelineEntries;
  db.exec("ANALYZE timeline_entries");
  db.close();
  writeFileSync(metaFile, JSON.stringify(meta, null, 2));
  console.log(`bench-following: ${JSON.stringify(meta.following)} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}
