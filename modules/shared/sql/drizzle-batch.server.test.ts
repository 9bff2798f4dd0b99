// Why the executor is still ours (decision 031), re-tested on the installed drizzle-orm: if a
// Drizzle upgrade makes the first test fail, its `db.batch` takes raw statements with values and
// the workaround can go. And `built()`: a Drizzle builder read in our batch, typed and decoded.
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../db/schema";
import { createDb } from "../context.server";
import { batch } from "./batch.server";
import { built, select } from "./statement.server";

describe("Drizzle's own db.batch (drizzle-orm 0.45)", () => {
  const db = createDb(env.DB);

  it("still throws on a raw sql statement with a bound value", async () => {
    await expect(db.batch([db.all(sql`SELECT ${1} AS one`)])).rejects.toThrow(/bind/);
  });

  it("takes a raw statement without values, and builders with them", async () => {
    const [raw, rows] = await db.batch([db.all(sql`SELECT 1 AS one`), db.select({ n: users.id }).from(users).where(eq(users.id, "nobody"))]);
    expect(raw).toEqual([{ one: 1 }]);
    expect(rows).toEqual([]);
  });
});

describe("built(): a builder read in our batch", () => {
  const db = createDb(env.DB);

  it("is typed and decoded from its selection, and coalesces with templates", async () => {
    const id = `built-${Date.now()}`;
    await db.insert(users).values({ id, userName: id, passwordHash: "x", createdAt: 1_700_000_000_000 });
    const fields = { userId: users.id, name: users.userName, born: users.createdAt };
    const [rows, [one]] = await batch(db, [
      built(fields, db.select(fields).from(users).where(eq(users.id, id))),
      select({ one: sql<number>`1` }, sql``),
    ]);
    expect(rows).toEqual([{ userId: id, name: id, born: 1_700_000_000_000 }]);
    expect(one).toEqual({ one: 1 });
  });

  it("refuses two columns of one name rather than shifting the rest", async () => {
    const fields = { a: users.id, b: users.id };
    await expect(batch(db, [built(fields, db.select(fields).from(users).limit(1))])).rejects.toThrow(/two of one name/);
  });
});
