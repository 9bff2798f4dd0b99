// The column list `columns()` writes by hand must be what Drizzle itself writes for the same
// selection (tables, aliases, keys), and a select's rows must come back typed and decoded.
import { env } from "cloudflare:workers";
import { sql, type SQL } from "drizzle-orm";
import { alias, SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { echos, scrolls, users } from "../db/schema";
import { boundedCache, boundedHints, forgetAllHints } from "../bounded-cache";
import { createDb } from "../context.server";
import { batch, configureRequestDb, holdBatch, sharedReads } from "./batch.server";
import { prepared, preparedAround } from "./prepared.server";
import { columns, select } from "./statement.server";
import { testAppContext } from "../test-context.server";

const dialect = new SQLiteAsyncDialect();
const asDrizzleWritesIt = (fields: Record<string, unknown>) =>
  dialect.sqlToQuery(sql.join(Object.entries(fields).map(([key, field]) => sql`${field} AS ${sql.identifier(key)}`), sql`, `));

describe("columns()", () => {
  it("writes schema columns, aliased or not, exactly as Drizzle does, and keeps expressions' parameters", () => {
    const e = alias(echos, "e");
    const u = alias(users, "u");
    const fields = {
      id: e.id,
      createdAt: e.createdAt,
      liked: sql<number>`EXISTS (SELECT 1 WHERE ${"x"} = ${"y"})`,
      userName: u.userName,
      isPrivate: scrolls.isPrivate,
    };
    const ours = dialect.sqlToQuery(columns(fields));
    expect(ours).toEqual(asDrizzleWritesIt(fields));
    expect(ours.params).toEqual(["x", "y"]);
  });

  it("a select's rows are keyed by the selection and decoded by the schema's columns", async () => {
    const s = alias(scrolls, "s");
    const [rows] = await batch(testAppContext(env).db, [
      select(
        { includedTags: s.includedTags, isPrivate: s.isPrivate, n: sql<number>`1 + 1` },
        sql`FROM (SELECT '["a","b"]' AS included_tags, 1 AS is_private) s`,
      ),
    ]);
    expect(rows).toEqual([{ includedTags: ["a", "b"], isPrivate: true, n: 2 }]);
  });
});

describe("prepared()", () => {
  const s = alias(scrolls, "s");
  const build = (v: { name: unknown; flag: unknown }) =>
    select(
      { name: s.name, isPrivate: s.isPrivate, twice: sql<string>`${v.name} || ${v.name}` },
      sql`FROM (SELECT ${v.name} AS name, ${v.flag} AS is_private) s WHERE s.name = ${v.name}`,
    );

  it("renders once, binds each use's values where a fresh statement would put them, and decodes alike", async () => {
    let renders = 0;
    const statement = prepared(["name", "flag"], (v) => {
      renders++;
      return build(v);
    });
    const db = testAppContext(env).db;
    for (const [name, flag] of [["a", 1], ["b'; DROP TABLE users; --", 0]] as const) {
      const fresh = build({ name, flag });
      const { sql: text, params } = fresh.toQuery();
      expect(statement({ name, flag }).toQuery()).toEqual({ sql: text, params });
      const [ours, theirs] = await batch(db, [statement({ name, flag }), fresh]);
      expect(ours).toEqual(theirs);
      expect(ours).toEqual([{ name, isPrivate: flag === 1, twice: name + name }]);
    }
    expect(renders).toBe(1);
  });

  it("a missing value is an error, not a NULL", () => {
    const statement = prepared(["name", "flag"], build);
    expect(() => statement({ name: "a" } as never).toQuery()).toThrow(/flag/);
  });
});

describe("preparedAround()", () => {
  const s = alias(scrolls, "s");
  const build = (v: { name: unknown }, body: SQL) =>
    select({ name: s.name, isPrivate: s.isPrivate, tag: sql<string>`${v.name} || s.t` }, sql`FROM (${body}) s WHERE s.name <> ${v.name}`);

  it("renders the frame once and puts each use's text in the middle, its values where a fresh statement would put them", async () => {
    let renders = 0;
    const statement = preparedAround(["name"], (v, body) => {
      renders++;
      return build(v, body);
    });
    const db = testAppContext(env).db;
    for (const [name, body] of [
      ["a", "SELECT 'x' AS name, 1 AS is_private, '1' AS t"],
      ["b'; --", "SELECT 'y' AS name, 0 AS is_private, '2' AS t UNION ALL SELECT 'b''; --', 0, '3'"],
    ] as const) {
      const fresh = build({ name }, sql.raw(body));
      const { sql: text, params } = fresh.toQuery();
      expect(statement({ name }, body).toQuery()).toEqual({ sql: text, params });
      const [ours, theirs] = await batch(db, [statement({ name }, body), fresh]);
      expect(ours).toEqual(theirs);
      expect(ours.length).toBe(1);
      expect(ours[0]!.isPrivate).toBe(name === "a");
    }
    expect(renders).toBe(1);
  });

  it("a frame without its body, or with it twice, is refused", () => {
    expect(() => preparedAround([], () => select({ n: sql<number>`1` }, sql``))({}, "SELECT 1").toQuery()).toThrow(/once/);
    expect(() => preparedAround([], (_, body) => select({ n: sql<number>`1` }, sql`FROM (${body}), (${body})`))({}, "SELECT 1")).toThrow(/once/);
  });
});

describe("identical reads in one batch are sent once", () => {
  const q = (text: string, ...params: unknown[]) => ({ sql: text, params });

  it("sharedReads maps a repeated read to its first occurrence, and nothing else", () => {
    const one = q("SELECT a FROM t WHERE id = ?", "u1");
    expect(sharedReads([one, q("SELECT b FROM t"), { ...one }, q("SELECT a FROM t WHERE id = ?", "u2"), q("SELECT a FROM t WHERE id = ?", 1), q("SELECT a FROM t WHERE id = ?", "1")])).toEqual([0, 1, 0, 3, 4, 5]);
    expect(sharedReads([q("select x"), q("  SELECT x"), q("select x")])).toEqual([0, 1, 0]);
    expect(sharedReads([q("SELECT 1", 10n), q("SELECT 1", 10n), q("SELECT 1", "10n")])).toEqual([0, 0, 2]);
  });

  it("shares nothing in a batch that writes: a read after a write may see it", () => {
    const read = q("SELECT n FROM t WHERE id = ?", "u1");
    expect(sharedReads([read, q("UPDATE t SET n = n + 1 WHERE id = ?", "u1"), read])).toEqual([0, 1, 2]);
    expect(sharedReads([read, q("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x"), read])).toEqual([0, 1, 2]);
  });

  it("a shared read is sent once, and each asker gets its own decoded rows", async () => {
    let sent = 0;
    const d1 = { prepare: env.DB.prepare.bind(env.DB), batch: (statements: D1PreparedStatement[]) => ((sent += statements.length), env.DB.batch(statements)) };
    const db = createDb(d1 as unknown as D1Database);
    const read = () => select({ includedTags: scrolls.includedTags, n: sql<number>`1 + 1` }, sql`FROM (SELECT '["a","b"]' AS included_tags) scrolls`);
    const [a, b, c] = await batch(db, [read(), read(), select({ n: sql<number>`2` }, sql``)]);
    expect(sent).toBe(2);
    expect(a).toEqual([{ includedTags: ["a", "b"], n: 2 }]);
    expect(b).toEqual(a);
    expect(b![0]).not.toBe(a![0]);
    expect(c).toEqual([{ n: 2 }]);
  });
});

describe("holdBatch()", () => {
  it("keeps a coalescing request's next batch until the held work queued its reads: one round trip", async () => {
    let trips = 0;
    const d1 = { prepare: env.DB.prepare.bind(env.DB), batch: (statements: D1PreparedStatement[]) => (trips++, env.DB.batch(statements)) };
    const db = createDb(d1 as unknown as D1Database);
    configureRequestDb(db, { coalesce: true });
    const read = (n: number) => select({ n: sql<number>`${n}` }, sql``);
    // a read queued first (a session check), then one that waits for something elsewhere (KV)
    const first = batch(db, [read(1)]);
    let second: Promise<unknown> | null = null;
    holdBatch(
      db,
      new Promise<void>((done) =>
        setTimeout(() => {
          second = batch(db, [read(2)]);
          done();
        }, 30),
      ),
    );
    expect(await first).toEqual([[{ n: 1 }]]);
    expect(await second).toEqual([[{ n: 2 }]]);
    expect(trips).toBe(1);
    // a failed hold holds nothing back
    holdBatch(db, Promise.reject(new Error("KV down")));
    expect(await batch(db, [read(3)])).toEqual([[{ n: 3 }]]);
    expect(trips).toBe(2);
  });
});

describe("boundedHints()", () => {
  it("forgets the oldest key first, and forgetAllHints forgets every map's", () => {
    const hints = boundedHints<string, number>(2);
    hints.set("a", 1);
    hints.set("b", 2);
    hints.set("c", 3);
    expect([hints.get("a"), hints.get("b"), hints.get("c")]).toEqual([undefined, 2, 3]);
    forgetAllHints();
    expect(hints.get("c")).toBeUndefined();
  });
});

describe("boundedCache()", () => {
  it("computes a key once, and past its size forgets the oldest key first", () => {
    const cache = boundedCache<string, number>(2);
    let computed = 0;
    const get = (key: string) => cache(key, () => ++computed);
    expect([get("a"), get("a"), get("b"), get("a")]).toEqual([1, 1, 2, 1]);
    expect(get("c")).toBe(3); // "a" was the oldest: it goes
    expect(get("b")).toBe(2);
    expect(get("a")).toBe(4);
  });
});
