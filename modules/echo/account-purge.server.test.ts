// Deleting a big account stays within the request budget and its rows leave through the change
// stream in bounded steps, every count others see exact after (issue 28, decision 032). As one
// cascade the deletion read and wrote every row of the account in the request; then its purge
// deleted 50 echos a step with their whole cascades, so one echo with 5,000 likes made a step of
// tens of thousands of rows. Now its big echos are handed to their own chains (this module's
// consumer: the test lives here, where both consumers are). Real D1 in workerd, the queue a plain
// array drained by the consumers one message at a time, each step measured.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../shared/index";
import { batch, CHAIN_STALL_MS, createDb, instrumentD1, select, sql, stalledChains, testAppContext, type Change, type D1Stats, type SQL } from "../shared/index.server";
import { consumeAccountPurges, deleteAccount, PURGE_ECHOS, PURGE_SLICE, signup } from "../auth/index.server";
import { consumeEchoPurges, ECHO_PURGE_SLICE } from "./delete.server";

const ECHOS = 2_000;
const LIKES = 2_000;
const OTHERS = 500;
/** Others who like, repost and reply to the account's three big echos, 5,000 each. */
const FANS = 5_000;
/** What one step may read and write, whatever the account holds (measured: see the console line). */
const STEP_READ = 30_000;
const STEP_WRITTEN = 12_000;

const newStats = (): D1Stats => ({ roundTrips: 0, rowsRead: 0, rowsWritten: 0 });

function queued(sent: Change[], stats?: D1Stats) {
  const queue = { sendBatch: async (messages: { body: Change }[]) => void sent.push(...messages.map((m) => m.body)) };
  const e = { ...env, FEED_EVENTS: queue } as unknown as Env;
  return testAppContext(e, stats ? { db: createDb(instrumentD1(env.DB, stats)) } : {});
}

const db = () => createDb(env.DB);
const count = async (from: SQL) => (await batch(db(), [select({ n: sql<number>`count(*)` }, from)]))[0][0]!.n;
/** Rows of a counter that differ from what it counts (the query selects the mismatches). */
const mismatches = async (from: SQL) => count(from);

/** Insert `rows` (JSON objects) with `statement` over json_each, 500 at a time. */
async function insertAll(rows: unknown[], statement: (part: string) => SQL) {
  for (let i = 0; i < rows.length; i += 500) await batch(db(), [statement(JSON.stringify(rows.slice(i, i + 500)))]);
}

/**
 * Every counter others see against what it counts: users' followers and following, echos' likes,
 * shares and replies, tags' echos, scrolls' followers and items, notification groups' actors, the
 * store's echo total.
 */
async function counterDrift(): Promise<Record<string, number>> {
  return {
    followers: await mismatches(sql`FROM users u WHERE followers_count <> (SELECT count(*) FROM user_follows WHERE followee_id = u.id)`),
    following: await mismatches(sql`FROM users u WHERE following_count <> (SELECT count(*) FROM user_follows WHERE follower_id = u.id)`),
    likes: await mismatches(sql`FROM echos e WHERE likes_count <> (SELECT count(*) FROM likes WHERE echo_id = e.id)`),
    reposts: await mismatches(sql`FROM echos e WHERE reposts_count <> (SELECT count(*) FROM reposts WHERE echo_id = e.id)`),
    echos: await mismatches(sql`FROM users u WHERE echos_count <> (SELECT count(*) FROM echos WHERE author_id = u.id)`),
    shares: await mismatches(sql`FROM echos e WHERE shares_count <> (SELECT count(*) FROM shares WHERE echo_id = e.id)`),
    replies: await mismatches(sql`FROM echos e WHERE comments_count <> (SELECT count(*) FROM echos r WHERE r.parent_id = e.id)`),
    tags: await mismatches(sql`FROM tags t WHERE echo_count <> (SELECT count(*) FROM echo_tags WHERE tag = t.name)`),
    scrollFollowers: await mismatches(sql`FROM scrolls s WHERE followers_count <> (SELECT count(*) FROM scroll_follows WHERE scroll_id = s.id)`),
    scrollEchos: await mismatches(sql`FROM scrolls s WHERE type = 'curation' AND echos_count <> (SELECT count(*) FROM scroll_echos WHERE scroll_id = s.id)`),
    groups: await mismatches(sql`FROM notification_groups g WHERE actor_count <> (SELECT count(*) FROM notifications n
      WHERE n.recipient_id = g.recipient_id AND n.kind = g.kind AND n.group_key = g.group_key)`),
    total: await mismatches(sql`FROM stats WHERE key = 'echos' AND value <> (SELECT count(*) FROM echos)`),
  };
}

describe("deleting an account with 2,000 echos (three with 5,000 likes, reposts, replies), 2,000 likes, 500 follows each way, scrolls", () => {
  it("answers within 2 round trips and 200 rows read; the stream removes the rest in steps of bounded rows, counts exact", { timeout: 900_000 }, async () => {
    const gone = (await signup(testAppContext(env), { userName: "purged", password: "pass1234" })).user._id;
    const others = Array.from({ length: OTHERS }, () => newId()).sort();
    await insertAll(others, (part) => sql`INSERT INTO users (id, user_name, password_hash, created_at) SELECT value, 'pg_' || key, 'x', 0 FROM json_each(${part})`);
    // 4 echos by each other user (the account likes 2,000 of them), some tagged
    const theirs = others.flatMap((author, i) => [0, 1, 2, 3].map((k) => ({ id: newId(Date.now() - 1e6 + i * 4 + k), author })));
    await insertAll(theirs, (part) => sql`INSERT INTO echos (id, author_id, content, tags, created_at)
      SELECT json_extract(value, '$.id'), json_extract(value, '$.author'), 'theirs', '[]', 0 FROM json_each(${part})`);
    // the account's 2,000 echos: a tag on each 10th, a reply to another's echo on each 20th
    const mine = Array.from({ length: ECHOS }, (_, i) => ({ id: newId(Date.now() - 5e5 + i), parent: i % 20 === 0 ? theirs[i]!.id : null, tagged: i % 10 === 0 }));
    await insertAll(mine, (part) => sql`INSERT INTO echos (id, author_id, content, tags, created_at, parent_id, root_id)
      SELECT json_extract(value, '$.id'), ${gone}, 'mine', CASE WHEN json_extract(value, '$.tagged') THEN '["purgetag"]' ELSE '[]' END, 0,
        json_extract(value, '$.parent'), json_extract(value, '$.parent') FROM json_each(${part})`);
    await batch(db(), [
      sql`INSERT OR IGNORE INTO tags (name, created_at) VALUES ('purgetag', 0), ('kepttag', 0)`,
      sql`INSERT INTO echo_tags (tag, echo_id, day, tags) SELECT 'purgetag', id, 0, '["purgetag"]' FROM echos WHERE author_id = ${gone} AND tags = '["purgetag"]'`,
      sql`INSERT INTO echo_tags (tag, echo_id, day, tags) SELECT 'kepttag', id, 0, '["kepttag"]' FROM echos WHERE author_id <> ${gone} AND content = 'theirs' LIMIT 300`,
    ]);
    await insertAll(theirs.slice(0, LIKES), (part) => sql`INSERT INTO likes (echo_id, user_id, created_at) SELECT json_extract(value, '$.id'), ${gone}, 1 FROM json_each(${part})`);
    // others like and reply to the account's echos (a reply under mine[1]: its tombstone stays)
    await insertAll(others, (part) => sql`INSERT INTO likes (echo_id, user_id, created_at) SELECT ${mine[1]!.id}, value, 2 FROM json_each(${part})`);
    const replyToMine = newId();
    await batch(db(), [
      sql`INSERT INTO echos (id, author_id, content, tags, created_at, parent_id, root_id) VALUES (${replyToMine}, ${others[0]!}, 'a reply', '[]', 0, ${mine[1]!.id}, ${mine[1]!.id})`,
      sql`INSERT INTO shares (echo_id, user_id, created_at) SELECT id, ${gone}, 0 FROM echos WHERE author_id <> ${gone} LIMIT 300`,
      sql`INSERT INTO shares (echo_id, user_id, created_at) SELECT id, ${others[1]!}, 0 FROM echos WHERE author_id = ${gone} LIMIT 10`,
    ]);
    await insertAll(others, (part) => sql`INSERT INTO user_follows (follower_id, followee_id, created_at) SELECT ${gone}, value, 0 FROM json_each(${part})`);
    await insertAll(others, (part) => sql`INSERT INTO user_follows (follower_id, followee_id, created_at) SELECT value, ${gone}, 0 FROM json_each(${part})`);
    // the account's curation of 300 others' echos, followed by 250; another's curation holding 30 of mine
    const curation = newId();
    const theirCuration = newId();
    await batch(db(), [
      sql`INSERT INTO scrolls (id, name, creator_id, type, created_at) VALUES (${curation}, 'Mine', ${gone}, 'curation', 0), (${theirCuration}, 'Theirs', ${others[2]!}, 'curation', 0)`,
      sql`INSERT INTO scroll_echos (scroll_id, echo_id, added_at) SELECT ${curation}, id, 0 FROM echos WHERE author_id <> ${gone} LIMIT 300`,
      sql`INSERT INTO scroll_echos (scroll_id, echo_id, added_at) SELECT ${theirCuration}, id, 0 FROM echos WHERE author_id = ${gone} LIMIT 30`,
      sql`INSERT INTO scroll_follows (scroll_id, user_id, created_at) SELECT ${curation}, value, 0 FROM json_each(${JSON.stringify(others.slice(0, 250))})`,
      sql`INSERT INTO scroll_follows (scroll_id, user_id, created_at) VALUES (${theirCuration}, ${gone}, 0)`,
      sql`INSERT INTO timeline_entries (owner_id, echo_id) SELECT ${gone}, id FROM echos WHERE author_id <> ${gone} LIMIT 500`,
    ]);
    // another's feed naming the account (its name stored with the rule, migration 0016)
    const naming = newId();
    await batch(db(), [
      sql`INSERT INTO scrolls (id, name, creator_id, type, created_at, authors, author_names)
        VALUES (${naming}, 'Names', ${others[3]!}, 'feed', 0, json_array(${gone}, ${others[4]!}), json_array(json_array(${gone}, 'purged'), json_array(${others[4]!}, 'pg_4')))`,
    ]);
    // the big echos: 5,000 likes on mine[5], 5,000 reposts of mine[6], 5,000 replies under mine[7]
    const fans = Array.from({ length: FANS }, () => newId()).sort();
    await insertAll(fans, (part) => sql`INSERT INTO users (id, user_name, password_hash, created_at) SELECT value, 'pf_' || value, 'x', 0 FROM json_each(${part})`);
    await insertAll(fans, (part) => sql`INSERT INTO likes (echo_id, user_id, created_at) SELECT ${mine[5]!.id}, value, 3 FROM json_each(${part})`);
    await insertAll(fans, (part) => sql`INSERT INTO reposts (id, echo_id, user_id, created_at) SELECT value || 'r', ${mine[6]!.id}, value, 3 FROM json_each(${part})`);
    await insertAll(fans, (part) => sql`INSERT INTO echos (id, author_id, content, tags, created_at, parent_id, root_id)
      SELECT value || 'p', value, 'a fan reply', '[]', 0, ${mine[7]!.id}, ${mine[7]!.id} FROM json_each(${part})`);
    const exact = { followers: 0, following: 0, likes: 0, reposts: 0, echos: 0, shares: 0, replies: 0, tags: 0, scrollFollowers: 0, scrollEchos: 0, groups: 0, total: 0 };
    expect(await counterDrift()).toEqual(exact);

    const sent: Change[] = [];
    const request = newStats();
    const [session] = await batch(db(), [sql`SELECT id FROM sessions WHERE user_id = ${gone}`]);
    const claims = { userId: gone, sessionId: (session as { id: string }[])[0]!.id, expiresAt: Date.now() + 60_000 };
    await deleteAccount(queued(sent, request), claims, "pass1234");
    expect(request.roundTrips).toBeLessThanOrEqual(2);
    expect(request.rowsRead).toBeLessThanOrEqual(200);
    expect(request.rowsWritten).toBeLessThanOrEqual(200);
    // gone for sign-in and its name at once; its row waits for the stream
    expect(await count(sql`FROM users WHERE user_name = 'purged'`)).toBe(0);
    expect(await count(sql`FROM sessions WHERE user_id = ${gone}`)).toBe(0);
    expect(sent).toEqual([{ type: "purge", userId: gone }]);

    // a step's message is lost once: the repair pass's replay takes the chain on
    sent.length = 0;
    const [replay] = [await stalledChains(db(), Date.now() + CHAIN_STALL_MS + 1)];
    expect(replay).toEqual([{ type: "purge", userId: gone }]);
    sent.push(...replay);

    let steps = 0;
    let accountSteps = 0;
    let worst = newStats();
    let worstKinds = "";
    const removed: Record<string, number> = {};
    // (the deleted echos' `unfanout` and the feed indexes' messages are their consumers' own tests)
    const purgeStep = (c: Change) => c.type === "purge" || c.type === "purgeEcho";
    while (sent.some(purgeStep)) {
      for (const change of sent.splice(0, sent.length).filter(purgeStep)) {
        const step = newStats();
        const app = queued(sent, step);
        const deleted = change.type === "purge" ? await consumeAccountPurges(app, app.db, [change]) : await consumeEchoPurges(app, app.db, [change]);
        for (const [kind, n] of Object.entries(deleted)) removed[kind] = (removed[kind] ?? 0) + n;
        // every step within its bound, whatever one echo holds
        expect(step.rowsRead, `${change.type} step ${steps}`).toBeLessThanOrEqual(STEP_READ);
        expect(step.rowsWritten, `${change.type} step ${steps}`).toBeLessThanOrEqual(STEP_WRITTEN);
        if (step.rowsRead > worst.rowsRead) {
          worst = step;
          worstKinds = JSON.stringify(deleted);
        }
        if (change.type === "purge") accountSteps++;
        steps++;
      }
      expect(steps).toBeLessThan(500);
    }
    // the account's echos at PURGE_ECHOS a step, the likes and follows at PURGE_SLICE; the big
    // echos' rows in their own chains' steps (5,000 likes at ECHO_PURGE_SLICE a step)
    expect(accountSteps).toBeGreaterThanOrEqual(ECHOS / PURGE_ECHOS);
    expect(steps - accountSteps).toBeGreaterThanOrEqual(FANS / ECHO_PURGE_SLICE);
    expect(PURGE_SLICE).toBe(200);
    // (the account's likes; the others' on mine[1] and the fans' on mine[5], by those echos' chains)
    expect(removed).toMatchObject({ likes: LIKES + OTHERS + FANS, reposts: FANS, echos: ECHOS, accounts: 1 });
    // the measured numbers, for docs/scaling.md and decision 032
    console.warn(`account deletion: request ${request.rowsRead} rows read, ${request.rowsWritten} written, ${request.roundTrips} rt; ${steps} steps (${accountSteps} the account's), the largest read ${worst.rowsRead} rows and wrote ${worst.rowsWritten} (${worstKinds})`);

    for (const from of [
      sql`FROM users WHERE id = ${gone}`,
      sql`FROM echos WHERE author_id = ${gone}`,
      sql`FROM likes WHERE user_id = ${gone}`,
      sql`FROM shares WHERE user_id = ${gone}`,
      sql`FROM user_follows WHERE follower_id = ${gone} OR followee_id = ${gone}`,
      sql`FROM scrolls WHERE creator_id = ${gone}`,
      sql`FROM scroll_follows WHERE user_id = ${gone}`,
      sql`FROM notifications WHERE actor_id = ${gone} OR recipient_id = ${gone}`,
      sql`FROM timeline_entries WHERE owner_id = ${gone}`,
      sql`FROM stream_chains`,
    ]) {
      expect(await count(from)).toBe(0);
    }
    expect(await counterDrift()).toEqual(exact);
    // others' things stay, their counts down by what the account did
    expect(await count(sql`FROM echos WHERE author_id <> ${gone}`)).toBe(OTHERS * 4 + 1 + FANS);
    expect(await count(sql`FROM reposts`)).toBe(0);
    expect(await count(sql`FROM users WHERE followers_count > 0 OR following_count > 0`)).toBe(0);
    expect(await count(sql`FROM tags WHERE name = 'purgetag' AND echo_count > 0`), "tag").toBe(0);
    expect(await count(sql`FROM scrolls WHERE id = ${theirCuration} AND echos_count = 0`), "their curation").toBe(1);
    expect(await count(sql`FROM scrolls WHERE id = ${naming} AND author_names = json_array(json_array(${others[4]!}, 'pg_4'))`), "rule names").toBe(1);
    expect(await count(sql`FROM scroll_authors WHERE author_id = ${gone}`)).toBe(0);
    // the reply under the account's echo keeps its place under "This echo was deleted"
    expect(await count(sql`FROM echo_tombstones WHERE id = ${mine[1]!.id}`), "tombstone").toBe(1);
    expect(await count(sql`FROM echo_tombstones WHERE id = ${mine[7]!.id}`), "the big thread's tombstone").toBe(1);
    expect(await count(sql`FROM echos WHERE id = ${replyToMine}`), "reply").toBe(1);
  });
});
