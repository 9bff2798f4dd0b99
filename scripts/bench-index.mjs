// `npm run bench:index`: what the feed index (docs/decisions/020-feed-index.md) holds and costs at
// the bench store's scale, read offline from the store `npm run bench:data` built (STATE_DIR,
// default bench-state/) with its indexes built: how many indexes, their entries and storage, how
// many are complete or sparse; and, for 3,000 random echos posted now and 3,000 likes on random
// liked echos, how many candidate indexes each reaches through the registered terms
// (feed_rule_terms) and how many entries each writes. Whether a candidate's rule matches is
// restated over plain rows from feed-rules.reference.ts (the module needs the Workers runtime; its
// property test holds it to the engine and the reference).
import { DatabaseSync } from "node:sqlite";
import { readdirSync } from "node:fs";
import path from "node:path";
const dir = path.resolve(process.env.STATE_DIR || "bench-state", "v3/d1/miniflare-D1DatabaseObject");
const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
const db = new DatabaseSync(path.join(dir, file), { readOnly: true });
const now = Date.now();
const WINDOW = { "1day": 86_400_000, "1month": 30 * 86_400_000, "1year": 365 * 86_400_000 };

const indexes = new Map(
  db
    .prepare("SELECT id, rule_key, state, complete, floor, floor_rank, cap FROM feed_indexes")
    .all()
    // (a viewer index's key names its rule after `v:<viewer>:` — decision 033; it is a candidate like any index)
    .map((r) => [r.id, { ...r, rule: JSON.parse(r.rule_key.replace(/^v:[^:]*:/, "")) }]),
);
const byTerm = new Map();
for (const { term, index_id } of db.prepare("SELECT term, index_id FROM feed_rule_terms").all()) (byTerm.get(term) ?? byTerm.set(term, []).get(term)).push(index_id);

/** feed-rules.reference.ts ruleChecks, every check passed (no viewer: "hide liked" is the reader's). */
const matches = (r, e) => {
  if (r.includedTags.length) {
    const has = (t) => e.tags.includes(t);
    if (!(r.tagMatchType === "all" ? r.includedTags.every(has) : r.includedTags.some(has))) return false;
  }
  if (r.excludedTags.some((t) => e.tags.includes(t))) return false;
  if (r.authors.length && !r.authors.includes(e.authorId)) return false;
  if (r.startDate !== null && e.createdAt < r.startDate) return false;
  if (r.endDate !== null && e.createdAt > r.endDate) return false;
  if (r.sortBy === "mostLiked" && r.sortTimeRange !== "allTime" && e.createdAt < now - WINDOW[r.sortTimeRange]) return false;
  return true;
};
/** feed-index.server.ts: whether (rank, id) stands at or before the index's frontier. */
const within = (ix, rank, id) => {
  if (ix.state === "building" || ix.complete || ix.floor === null) return true;
  if (ix.rule.sortBy === "oldestFirst") return id <= ix.floor;
  return rank !== ix.floor_rank ? rank > ix.floor_rank : id >= ix.floor;
};
const postTerms = (e) => [...e.tags.map((t) => `t:${t}`), `a:${e.authorId}`, ...likeTerms(e)];
const likeTerms = (e) => [...e.tags.map((t) => `l:t:${t}`), `l:a:${e.authorId}`, "l:*"];
const reach = (terms) => new Set(terms.flatMap((t) => byTerm.get(t) ?? []));

const maxRow = db.prepare("SELECT max(rowid) m FROM echos").get().m;
const one = db.prepare("SELECT id, author_id, tags, created_at, likes_count FROM echos WHERE rowid >= ? LIMIT 1");
const liked = db.prepare("SELECT id, author_id, tags, created_at, likes_count FROM echos WHERE rowid >= ? AND likes_count > 0 LIMIT 1");
const postCands = [];
const postWrites = [];
// a store built before dense rules kept no entries (cap 0): its ready, incomplete indexes at the
// 500 cap are the dense ones; these figures leave them out, as the consumer now does
const denseLike = (ix) => ix.cap === 0 || (ix.cap === 500 && ix.state === "ready" && !ix.complete);
const postCandsSparse = [];
const postWritesSparse = [];
const likeCandsSparse = [];
const likeWritesSparse = [];
const likeCands = [];
const likeWrites = [];
for (let k = 0; k < 3000; k++) {
  const r = one.get(1 + Math.floor(Math.random() * maxRow));
  if (r) {
    // as if posted now: the newest id, no likes
    const e = { id: "~", authorId: r.author_id, tags: JSON.parse(r.tags), createdAt: now };
    const cands = reach(postTerms(e));
    postCands.push(cands.size);
    const writes = [...cands].filter((id) => indexes.get(id).cap !== 0 && matches(indexes.get(id).rule, e) && within(indexes.get(id), 0, e.id));
    postWrites.push(writes.length);
    postCandsSparse.push([...cands].filter((id) => !denseLike(indexes.get(id))).length);
    postWritesSparse.push(writes.filter((id) => !denseLike(indexes.get(id))).length);
  }
  const l = liked.get(1 + Math.floor(Math.random() * maxRow));
  if (l) {
    const e = { id: l.id, authorId: l.author_id, tags: JSON.parse(l.tags), createdAt: l.created_at };
    const cands = reach(likeTerms(e));
    likeCands.push(cands.size);
    const writes = [...cands].filter((id) => indexes.get(id).cap !== 0 && matches(indexes.get(id).rule, e) && within(indexes.get(id), l.likes_count + 1, e.id));
    likeWrites.push(writes.length);
    likeCandsSparse.push([...cands].filter((id) => !denseLike(indexes.get(id))).length);
    likeWritesSparse.push(writes.filter((id) => !denseLike(indexes.get(id))).length);
  }
}
const stats = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, mean: +(s.reduce((x, y) => x + y, 0) / Math.max(1, s.length)).toFixed(1), p50: q(0.5), p99: q(0.99), max: s[s.length - 1] };
};

const perIndex = db.prepare("SELECT index_id, count(*) n FROM feed_index_entries GROUP BY index_id").all().map((r) => r.n);
const entries = perIndex.reduce((a, b) => a + b, 0);
let bytes = null;
try {
  bytes = db.prepare("SELECT sum(pgsize) b FROM dbstat WHERE name IN ('feed_index_entries', 'feed_index_entries_echo')").get().b;
} catch {
  // no dbstat in this SQLite build: estimated below
}
const all = [...indexes.values()];
const feeds = db.prepare("SELECT count(*) n, sum(rule_key != '') k FROM scrolls WHERE type = 'feed'").get();
const out = {
  feeds: feeds.n,
  feedsWithAnIndex: feeds.k,
  indexes: all.length,
  byOrder: Object.fromEntries(["newestFirst", "oldestFirst", "mostLiked"].map((o) => [o, all.filter((i) => i.rule.sortBy === o).length])),
  ready: all.filter((i) => i.state === "ready").length,
  complete: all.filter((i) => i.complete).length,
  sparseCap: all.filter((i) => i.cap > 500).length,
  entries,
  entriesPerIndex: stats(perIndex),
  storageBytes: bytes,
  bytesPerEntry: bytes ? +(bytes / Math.max(1, entries)).toFixed(1) : null,
  candidatesPerPost: stats(postCands),
  entriesWrittenPerPost: stats(postWrites),
  candidatesPerLike: stats(likeCands),
  entriesWrittenPerLike: stats(likeWrites),
  denseIndexes: all.filter(denseLike).length,
  denseEntries: db.prepare("SELECT count(*) n FROM feed_index_entries WHERE index_id IN (SELECT id FROM feed_indexes WHERE cap = 500 AND state = 'ready' AND complete = 0)").get().n,
  withoutDense: {
    candidatesPerPost: stats(postCandsSparse),
    entriesWrittenPerPost: stats(postWritesSparse),
    candidatesPerLike: stats(likeCandsSparse),
    entriesWrittenPerLike: stats(likeWritesSparse),
  },
};
console.log(JSON.stringify(out, null, 1));
