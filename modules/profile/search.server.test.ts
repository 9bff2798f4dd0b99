// User search against real D1 at a population where a scan would show: its reads stay bounded
// however many users share a prefix or a substring (migrations/0015; before it, every search
// read every user name: 61,114 rows at 50,000 users). Users are inserted with SQL here (sign-up
// hashes a password per user).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../shared/index";
import { batch, createDb, instrumentD1, sql, testAppContext, type D1Stats, type SQL } from "../shared/index.server";
import { searchPeople, searchUsers } from "./search.server";

const POPULATION = 3_000;
const app = () => testAppContext(env);

beforeAll(async () => {
  const now = Date.now();
  // "crowd0…crowd2999": one shared prefix; "xcrowd…" and "crowd…" share a substring too
  const inserts: SQL[] = Array.from({ length: POPULATION }, (_, i) => {
    const name = i % 3 === 0 ? `x${i}crowd` : `crowd${i}`;
    return sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES (${newId(now + i)}, ${name}, 'x', ${now})`;
  });
  for (let i = 0; i < inserts.length; i += 500) await batch(app().db, inserts.slice(i, i + 500));
}, 60_000);

async function measured(q: string) {
  const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
  const users = await searchUsers(testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) }), q);
  return { names: users.map((u) => u.userName), stats };
}

describe(`user search over ${POPULATION.toLocaleString("en")} users`, () => {
  it("reads a bounded number of rows in one round trip, prefix or substring, hit or miss", async () => {
    for (const q of ["c", "cr", "crowd", "rowd", "crowd29", "x29", "owd299", "nobody", "zzz"]) {
      const { stats } = await measured(q);
      expect(stats.roundTrips, q).toBe(1);
      expect(stats.rowsRead, q).toBeLessThanOrEqual(100);
    }
  });

  it("lists prefix matches alphabetically, then names containing the term", async () => {
    const { names } = await measured("crowd1");
    expect(names).toHaveLength(10);
    expect(names).toEqual([...names].sort());
    expect(names.every((n) => n.startsWith("crowd1"))).toBe(true);
    const few = await measured("crowd299");
    // crowd299 and crowd2990…2999 but for the multiples of 3 (named x…crowd): no name contains it elsewhere
    expect(few.names).toEqual(["crowd299", "crowd2990", "crowd2992", "crowd2993", "crowd2995", "crowd2996", "crowd2998", "crowd2999"]);
    const inside = await measured("9crowd");
    expect(inside.names.length).toBe(10);
    expect(inside.names.every((n) => n.startsWith("x") && n.endsWith("9crowd"))).toBe(true);
  });
});

describe("people on the /search page (issue 29)", () => {
  it("carry their bio and the viewer's follow, by prefix and by substring, in one bounded round trip", async () => {
    const now = Date.now();
    const [viewer, ann, bea] = [newId(now), newId(now + 1), newId(now + 2)];
    await batch(app().db, [
      sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES (${viewer}, 'pviewer', 'x', ${now})`,
      sql`INSERT INTO users (id, user_name, password_hash, bio, created_at) VALUES (${ann}, 'peoplesann', 'x', 'Tide pools', ${now})`,
      sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES (${bea}, 'xpeoplesbea', 'x', ${now})`,
      sql`INSERT INTO user_follows (follower_id, followee_id, created_at) VALUES (${viewer}, ${bea}, ${now})`,
    ]);
    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    const people = await searchPeople(testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) }), viewer, "peoples");
    expect(people).toEqual([
      { _id: ann, userName: "peoplesann", bio: "Tide pools", isFollowing: false, isMe: false },
      { _id: bea, userName: "xpeoplesbea", bio: "", isFollowing: true, isMe: false },
    ]);
    expect(stats.roundTrips).toBe(1);
    expect(stats.rowsRead).toBeLessThanOrEqual(100);
    expect((await searchPeople(app(), viewer, "pviewer"))[0]).toMatchObject({ userName: "pviewer", isMe: true });
    // the API's answer stays { _id, userName }
    expect(await searchUsers(app(), "peoplesann")).toEqual([{ _id: ann, userName: "peoplesann" }]);
  });
});
