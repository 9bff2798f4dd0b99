// The column list `columns()` writes by hand must be what Drizzle itself writes for the same
// selection (tables, aliases, keys), and a select's rows must come back typed and decoded.
import { env } from "cloudflare:workers";
import { sql, type SQL } from "drizzle-orm";
import { alias, SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { echos, scrolls, users } from "./db/schema";
import { boundedCache } from "./bounded-cache";
import { batch, columns, prepared, preparedAround, select } from "./sql.server";
import { testAppContext } from "./test-context.server";

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
