// Pages past a feed index's frontier (issue 27, decision 020 "Past the frontier, full"): a reader
// handed a cursor deep in a feed — past its index's frontier, where the index must be extended —
// pages on by cursor as fast as it can, against a server already serving the bench store, while
// the local queue's consumer extends the index. Prints, per feed, the pages full, the pages served
// by the scan (2 round trips) and their rows (Server-Timing), and whether the echos equal an SQL
// reading of the rule over echos/echo_tags (in order, each once). Rules of any-of tags, with or
// without excluded tags, no dates (what the SQL reading here covers).
//
// Usage: node scripts/bench-past-frontier.mjs <stateDir> <baseUrl> <skip> <pages> <scrollId>…
// (skip: the cursor is the skip-th match's; the server: scripts/server.mjs's startServer on the
// same state dir, with EXPOSE_D1_STATS=1; the reader signs in as bench10).
import { readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

const [stateDir, base, skipArg, pagesArg, ...scrollIds] = process.argv.slice(2);
const skip = Number(skipArg);
const maxPages = Number(pagesArg);
if (!stateDir || !base || !(skip > 0) || !(maxPages > 0) || scrollIds.length === 0) throw new Error("usage: bench-past-frontier.mjs <stateDir> <baseUrl> <skip> <pages> <scrollId>…");
const dir = path.join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
const file = readdirSync(dir).find((x) => x.endsWith(".sqlite") && x !== "metadata.sqlite");
const quote = (t) => `'${t.replaceAll("'", "''")}'`;
const encode = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");

/** The feed's rule, its index's state, and its matches in order (SQL over echos and echo_tags). */
function reference(scrollId) {
  const db = new DatabaseSync(path.join(dir, file), { readOnly: true });
  try {
    const { rule_key: key } = db.prepare("SELECT rule_key FROM scrolls WHERE id = ?").get(scrollId);
    const rule = JSON.parse(key);
    const index = db.prepare("SELECT complete, cap, floor, near FROM feed_indexes WHERE rule_key = ?").get(key);
    const included = rule.includedTags.map(quote).join(", ");
    const excluded = rule.excludedTags.map(quote).join(", ");
    const order = rule.sortBy === "oldestFirst" ? "e.id ASC" : rule.sortBy === "mostLiked" ? "e.likes_count DESC, e.id DESC" : "e.id DESC";
    const matches = db
      .prepare(
        `SELECT e.id, e.likes_count AS likes FROM echos e WHERE e.parent_id IS NULL
          AND EXISTS (SELECT 1 FROM echo_tags d WHERE d.echo_id = e.id AND d.tag IN (${included}))
          ${excluded ? `AND NOT EXISTS (SELECT 1 FROM echo_tags x WHERE x.echo_id = e.id AND x.tag IN (${excluded}))` : ""}
          ORDER BY ${order}`,
      )
      .all();
    return { rule, index, matches };
  } finally {
    db.close();
  }
}

const login = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "bench10", password: "benchpass" }) });
const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");

for (const scrollId of scrollIds) {
  const { rule, index, matches } = reference(scrollId);
  const at = matches[skip - 1];
  if (!at) {
    console.log(JSON.stringify({ scrollId, matches: matches.length, skipped: `fewer than ${skip} matches` }));
    continue;
  }
  let cursor = encode(rule.sortBy === "mostLiked" ? { l: at.likes, id: at.id } : { id: at.id });
  const seen = [];
  const pages = [];
  const started = Date.now();
  for (let n = 1; n <= maxPages && cursor; n++) {
    const res = await fetch(`${base}/api/scroll/${scrollId}/echos?limit=20&cursor=${encodeURIComponent(cursor)}`, { headers: { cookie } });
    const body = await res.json();
    const m = /rt=(\d+) rows=(\d+)/.exec(res.headers.get("server-timing") ?? "");
    pages.push({ n, echos: body.echos?.length ?? 0, rt: Number(m?.[1]), rows: Number(m?.[2]) });
    seen.push(...(body.echos ?? []).map((e) => e._id));
    cursor = body.pagination?.nextCursor;
  }
  const left = matches.length - skip;
  const full = pages.filter((p, i) => p.echos === Math.min(20, left - 20 * i));
  const want = matches.slice(skip, skip + seen.length).map((e) => e.id);
  const excluded = rule.excludedTags.length ? `, ${rule.excludedTags.length} excluded` : "";
  console.log(
    JSON.stringify({
      scrollId,
      rule: `${rule.sortBy} any of ${rule.includedTags.length}${excluded}`,
      matches: matches.length,
      index,
      from: skip,
      pages: pages.length,
      full: full.length,
      short: pages.filter((p) => !full.includes(p)).map((p) => `${p.n}:${p.echos}`).join(" "),
      scanPages: pages.filter((p) => p.rt === 2).length,
      maxRows: Math.max(...pages.map((p) => p.rows)),
      maxRt: Math.max(...pages.map((p) => p.rt)),
      equal: JSON.stringify(seen) === JSON.stringify(want),
      distinct: new Set(seen).size === seen.length,
      ms: Date.now() - started,
    }),
  );
}
