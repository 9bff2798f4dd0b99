// The feed indexes of a local store (docs/decisions/020-feed-index.md), built as a deployed store
// builds them: the scheduled repair pass keys every feed (FEED_INDEX_KEYS_PER_PASS a pass) and sends
// its backfill; the queue consumer walks the engine. The pass runs again every 20 s (it also resends
// a backfill whose message went missing) until every feed is keyed and no index is building.
// `npm run bench:data` calls it on its store; `npm run bench:indexes` runs it alone on an existing
// store (STATE_DIR, default bench-state/), e.g. one built before the indexes existed.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";
import { root } from "./lib.mjs";

export async function buildFeedIndexes(baseUrl, dbFile, log = () => {}) {
  const watch = new DatabaseSync(dbFile, { readOnly: true });
  const count = (q) => Object.values(watch.prepare(q).get())[0];
  const left = () => ({
    unkeyed: count("SELECT count(*) FROM scrolls WHERE type = 'feed' AND rule_key IS NULL"),
    building: count("SELECT count(*) FROM feed_indexes WHERE state = 'building'"),
  });
  const pass = async () => {
    const res = await fetch(`${baseUrl}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    if (!res.ok) throw new Error(`scheduled pass: ${res.status} ${await res.text()}`);
  };
  const started = Date.now();
  await pass();
  for (let last = Date.now(); ; ) {
    await new Promise((r) => setTimeout(r, 2000));
    const now = left();
    if (now.unkeyed === 0 && now.building === 0) break;
    if (Date.now() - started > 2 * 3600_000) throw new Error(`feed indexes not built after two hours: ${JSON.stringify(now)}`);
    if (Date.now() - last > 20_000) {
      log(`    … ${now.unkeyed} feeds to key, ${now.building} indexes building, ${count("SELECT count(*) FROM feed_index_entries")} entries (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      await pass();
      last = Date.now();
    }
  }
  const built = watch.prepare("SELECT count(*) AS indexes, sum(complete) AS complete, sum(cap > 500) AS sparse FROM feed_indexes").get();
  const entries = count("SELECT count(*) FROM feed_index_entries");
  watch.close();
  return { indexes: built.indexes, complete: built.complete, sparse: built.sparse, entries, seconds: (Date.now() - started) / 1000 };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { startServer } = await import("./server.mjs");
  const dir = path.resolve(root, process.env.STATE_DIR || "bench-state");
  const d1Dir = path.join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
  const dbFile = path.join(d1Dir, readdirSync(d1Dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite"));
  // FEED_INDEX_TRACE=1: the consumer writes a line per batch (messages, engine steps, entries,
  // indexes finished, ms, D1 round trips and rows), kept in <STATE_DIR>/feed-index-trace.log
  const trace = process.env.FEED_INDEX_TRACE === "1";
  const server = await startServer({
    port: Number(process.env.BENCH_PORT || "8810"),
    stateDir: dir,
    vars: { FEED_INDEX_KEYS_PER_PASS: "1000", ...(trace ? { FEED_INDEX_TRACE: "1" } : {}) },
  });
  const traceFile = path.join(dir, "feed-index-trace.log");
  const flush = () => trace && writeFileSync(traceFile, server.log().split("\n").filter((l) => l.includes("[feed-index-trace]")).join("\n") + "\n");
  const flushing = setInterval(flush, 30_000);
  try {
    const built = await buildFeedIndexes(server.baseUrl, dbFile, (line) => console.log(line));
    const metaFile = path.join(dir, "bench-meta.json");
    const meta = JSON.parse(readFileSync(metaFile, "utf8"));
    writeFileSync(metaFile, JSON.stringify({ ...meta, feedIndexes: built }, null, 2));
    console.log(`feed indexes built in ${built.seconds.toFixed(0)} s: ${JSON.stringify(built)}`);
  } finally {
    clearInterval(flushing);
    flush();
    await server.stop();
  }
}
