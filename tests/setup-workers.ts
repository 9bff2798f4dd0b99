import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";

// Every test file starts as if in a runtime of its own: an empty store with the real schema
// (migrations/), and its own instances of the app's modules. The files of one vitest worker share
// one workerd runtime (`isolate: false` in vitest.config.ts: a fresh runtime per file cost ~1.7
// CPU-s a file, issue 30), so this drops what an earlier file left in D1 and KV and evaluates the
// modules afresh (their per-isolate caches, e.g. the bounded hints, start empty).
vi.resetModules();

type Entry = { type: string; name: string; sql: string | null };
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const drop = (e: Entry) => env.DB.prepare(`DROP ${e.type.toUpperCase()} IF EXISTS ${quoted(e.name)}`);
const { results } = await env.DB.prepare(
  "SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view', 'table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
).all<Entry>();
if (results.length > 0) {
  // triggers, views and the full-text tables (their shadow tables go with them) first
  const virtual = (e: Entry) => /^CREATE VIRTUAL/i.test(e.sql ?? "");
  const first = results.filter((e) => e.type !== "table" || virtual(e));
  await env.DB.batch(first.sort((a, b) => Number(a.type === "table") - Number(b.type === "table")).map(drop));
  // then the tables (a full-text table's shadow tables are gone already: IF EXISTS), a table only
  // once no other table left refers to it: SQLite resolves a dropped table's foreign keys, and those
  // of the tables that refer to it, as it drops it (names compare without case, as in SQL)
  let left = results.filter((e) => e.type === "table" && !virtual(e));
  const parents = new Map<string, string[]>();
  for (const t of left) {
    const fks = await env.DB.prepare(`PRAGMA foreign_key_list(${quoted(t.name)})`).all<{ table: string }>();
    parents.set(t.name, fks.results.map((fk) => fk.table.toLowerCase()).filter((p) => p !== t.name.toLowerCase()));
  }
  while (left.length > 0) {
    const referred = new Set(left.flatMap((t) => parents.get(t.name) ?? []));
    const leaves = left.filter((t) => !referred.has(t.name.toLowerCase()));
    if (leaves.length === 0) throw new Error(`tests/setup-workers.ts: a cycle of foreign keys among ${left.map((t) => t.name).join(", ")}`);
    await env.DB.batch([env.DB.prepare("PRAGMA defer_foreign_keys = ON"), ...leaves.map(drop)]);
    left = left.filter((t) => referred.has(t.name.toLowerCase()));
  }
}
for (let cursor: string | undefined; ; ) {
  const page = await env.KV.list({ cursor });
  await Promise.all(page.keys.map((key) => env.KV.delete(key.name)));
  if (page.list_complete) break;
  cursor = page.cursor;
}

await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] }).TEST_MIGRATIONS);
