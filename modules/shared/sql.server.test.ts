// The column list `columns()` writes by hand must be what Drizzle itself writes for the same
// selection (tables, aliases, keys), and a select's rows must come back typed and decoded.
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { alias, SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { echos, scrolls, users } from "./db/schema";
import { batch, columns, select } from "./sql.server";
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
