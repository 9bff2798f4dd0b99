// Scroll search against real D1 (migrations/0015): bounded reads however many scrolls match, only
// public scrolls, and the index follows renames and deletes in the write's own transaction.
// Scrolls are inserted with SQL here (scroll creation is rate-limited per account).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, createDb, instrumentD1, sql, testAppContext, type D1Stats, type SQL } from "../shared/index.server";
import { searchPublicScrolls } from "./search.server";

const POPULATION = 2_000;
const app = () => testAppContext(env);
let creator = "";

beforeAll(async () => {
  creator = (await signup(app(), { userName: "scroll_search_owner", password: "pass1234" })).user._id;
  const now = Date.now() - POPULATION;
  // every name holds "Garden"; every fifth scroll is private; descriptions hold "moss" + the index
  const inserts: SQL[] = Array.from({ length: POPULATION }, (_, i) => {
    const [id, type, isPrivate] = [newId(now + i), i % 2 ? "feed" : "curation", i % 5 === 0 ? 1 : 0];
    return sql`INSERT INTO scrolls (id, creator_id, name, description, type, is_private, created_at)
               VALUES (${id}, ${creator}, ${`Garden ${i}`}, ${`moss${i}`}, ${type}, ${isPrivate}, ${now + i})`;
  });
  for (let i = 0; i < inserts.length; i += 500) await batch(app().db, inserts.slice(i, i + 500));
}, 60_000);

async function measured(term: string, limit = 20) {
  const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
  const scrolls = await searchPublicScrolls(testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) }), creator, term, limit);
  return { names: scrolls.map((s) => s.name), scrolls, stats };
}

describe(`scroll search over ${POPULATION.toLocaleString("en")} scrolls`, () => {
  it("reads a bounded number of rows in one round trip, common term or rare, short or long", async () => {
    for (const term of ["garden", "gar", "ga", "g", "moss1", "moss1999", "ss19", "nothing here"]) {
      const { stats } = await measured(term);
      expect(stats.roundTrips, term).toBe(1);
      expect(stats.rowsRead, term).toBeLessThanOrEqual(120);
    }
  });

  it("finds by any part of the name or description, case-insensitively, newest first, public only", async () => {
    const { names, scrolls } = await measured("GARDEN 199");
    // Garden 199 and Garden 1990…1999, but not the private multiples of 5
    expect(names).toEqual(["Garden 1999", "Garden 1998", "Garden 1997", "Garden 1996", "Garden 1994", "Garden 1993", "Garden 1992", "Garden 1991", "Garden 199"]);
    expect(scrolls.every((s) => !s.isPrivate)).toBe(true);
    expect((await measured("oss1234")).names).toEqual(["Garden 1234"]);
    expect((await measured("oss1235")).names).toEqual([]); // private
  });

  it("follows a rename and a delete", async () => {
    const id = newId(Date.now());
    await batch(app().db, [
      sql`INSERT INTO scrolls (id, creator_id, name, description, type, created_at) VALUES (${id}, ${creator}, 'Orchids weekly', '', 'feed', ${Date.now()})`,
    ]);
    expect((await measured("orchid")).names).toEqual(["Orchids weekly"]);
    await batch(app().db, [sql`UPDATE scrolls SET name = 'Ferns weekly', description = 'shade' WHERE id = ${id}`]);
    expect((await measured("orchid")).names).toEqual([]);
    expect((await measured("fern")).names).toEqual(["Ferns weekly"]);
    expect((await measured("shad")).names).toEqual(["Ferns weekly"]);
    await batch(app().db, [sql`DELETE FROM scrolls WHERE id = ${id}`]);
    expect((await measured("fern")).names).toEqual([]);
  });
});
