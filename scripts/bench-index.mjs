// `npm run bench:index`: what the feed index (docs/decisions/020-feed-index.md) costs per post at the
// bench store's scale, read offline from the store built by `npm run bench:data` (STATE_DIR, default
// bench-state/): which feeds are indexable, how many distinct indexes their canonical rules make,
// and for 3,000 random echos how many candidate indexes a post reaches through its terms and how
// many entries it writes. It restates indexable/ruleTerms/ruleChecks of feed-index.server.ts over
// plain rows (the module needs the Workers runtime; its property test holds the module to the engine).
import { DatabaseSync } from "node:sqlite";
import { readdirSync } from "node:fs";
import path from "node:path";
const dir = path.resolve(process.env.STATE_DIR || "bench-state", "v3/d1/miniflare-D1DatabaseObject");
const file = readdirSync(dir).find((f) => f.endsWith(".sqlite"));
const db = new DatabaseSync(path.join(dir, file), { readOnly: true });
const feeds = db.prepare("SELECT id, tag_match_type t, included_tags i, excluded_tags x, authors a, sort_by s, sort_time_range r, start_date sd, end_date ed FROM scrolls WHERE type='feed'").all();
const sorted = (l) => [...new Set(l)].sort();
const indexes = new Map(); // key -> {rule, terms}
let indexable = 0;
for (const f of feeds) {
  const rule = { t: f.t, i: sorted(JSON.parse(f.i)), x: sorted(JSON.parse(f.x)), a: sorted(JSON.parse(f.a)), s: f.s, sd: f.sd, ed: f.ed };
  if (rule.s !== "newestFirst" || (rule.i.length === 0 && rule.a.length === 0)) continue;
  indexable++;
  if (rule.i.length === 0) rule.t = "any";
  const key = JSON.stringify(rule);
  const terms = rule.a.length ? rule.a.map((a) => "a:" + a) : rule.t === "all" ? rule.i.slice(0, 1).map((t) => "t:" + t) : rule.i.filter((t) => !rule.x.includes(t)).map((t) => "t:" + t);
  indexes.set(key, { rule, terms });
}
const byTerm = new Map();
for (const [key, { terms }] of indexes) for (const t of terms) (byTerm.get(t) ?? byTerm.set(t, []).get(t)).push(key);
const match = (r, e) => {
  if (r.i.length) { const has = (t) => e.tags.includes(t); if (!(r.t === "all" ? r.i.every(has) : r.i.some(has))) return false; }
  if (r.x.some((t) => e.tags.includes(t))) return false;
  if (r.a.length && !r.a.includes(e.author)) return false;
  if (r.sd !== null && e.created < r.sd) return false;
  if (r.ed !== null && e.created > r.ed) return false;
  return true;
};
const total = db.prepare("SELECT count(*) n FROM echos").get().n;
const maxRow = db.prepare("SELECT max(rowid) m FROM echos").get().m;
const one = db.prepare("SELECT id, author_id, tags, created_at FROM echos WHERE rowid >= ? LIMIT 1");
const rows = [];
for (let k = 0; k < 3000; k++) { const r = one.get(1 + Math.floor(Math.random() * maxRow)); if (r) rows.push(r); }
const cands = [], writes = [];
for (const r of rows) {
  const e = { author: r.author_id, tags: JSON.parse(r.tags), created: r.created_at };
  const keys = new Set([...e.tags.map((t) => "t:" + t), "a:" + e.author].flatMap((t) => byTerm.get(t) ?? []));
  cands.push(keys.size);
  writes.push([...keys].filter((k) => match(indexes.get(k).rule, e)).length);
}
const stats = (a) => { const s = [...a].sort((x, y) => x - y); const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))]; return { n: s.length, mean: +(s.reduce((x, y) => x + y, 0) / s.length).toFixed(1), p50: q(0.5), p99: q(0.99), max: s[s.length - 1] }; };
console.log(JSON.stringify({ feeds: feeds.length, indexableFeeds: indexable, distinctIndexes: indexes.size, echos: total, candidatesPerPost: stats(cands), entriesWrittenPerPost: stats(writes) }, null, 1));
