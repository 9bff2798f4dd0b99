// What a follow and an unfollow cost D1 (issue 28 item 4, decision 013), against real D1: a
// followee with 600 echos, a follower whose Following timeline is full (TIMELINE_CAP rows). Before,
// the follow's trim sought the timeline's 501st entry and the unfollow walked the whole timeline
// (≈ 520 and 612 rows read); now each is a bounded index range: ≤ 200 rows, 1 round trip.
// Echos and timeline rows are written with SQL (600 posts would meet the post limit).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { listFollowing, TIMELINE_CAP, UNFOLLOW_REMOVE } from "../echo/index.server";
import { newId } from "../shared/index";
import { batch, createDb, instrumentD1, select, sql, tables, testAppContext, type D1Stats, type SQL } from "../shared/index.server";
import { setUserFollow } from "./profile.server";

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user._id;

async function echos(authorId: string, count: number, start: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => newId(start + i));
  const inserts: SQL[] = ids.map((id, i) => sql`INSERT INTO echos (id, author_id, content, tags, created_at) VALUES (${id}, ${authorId}, 'x', '[]', ${start + i})`);
  for (let i = 0; i < inserts.length; i += 200) await batch(app().db, inserts.slice(i, i + 200));
  return ids;
}

async function intoTimeline(ownerId: string, ids: string[]) {
  for (let i = 0; i < ids.length; i += 200) {
    await batch(app().db, ids.slice(i, i + 200).map((id) => sql`INSERT OR IGNORE INTO timeline_entries (owner_id, echo_id) VALUES (${ownerId}, ${id})`));
  }
}

async function timeline(ownerId: string): Promise<string[]> {
  const [rows] = await batch(app().db, [
    select({ echoId: tables.timelineEntries.echoId }, sql`FROM timeline_entries WHERE owner_id = ${ownerId} ORDER BY echo_id DESC`),
  ]);
  return rows.map((r) => r.echoId);
}

/** Run `call` on an instrumented db: its D1 round trips and rows. */
async function measured<T>(call: (a: ReturnType<typeof app>) => Promise<T>) {
  const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
  const result = await call(testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) }));
  return { result, ...stats };
}

describe("a follow and an unfollow read a bounded number of rows (decision 013)", { timeout: 60_000 }, () => {
  it("a followee with 600 echos, a follower with a full timeline: ≤ 200 rows and 1 round trip each way", async () => {
    const [reader, big, other] = [await user("fc_reader"), await user("fc_big"), await user("fc_other")];
    const bigs = await echos(big, 600, Date.now() - 1_000_000);
    const others = await echos(other, TIMELINE_CAP, Date.now() - 2_000_000);
    await setUserFollow(app(), reader, other, true);
    await intoTimeline(reader, others);
    expect(await timeline(reader)).toHaveLength(TIMELINE_CAP);

    const followed = await measured((a) => setUserFollow(a, reader, big, true));
    expect(followed.result.isFollowing).toBe(true);
    expect(followed.roundTrips).toBe(1);
    expect(followed.rowsRead).toBeLessThanOrEqual(200);
    // the followee's newest 20 came (the cron trims back to the cap)
    expect((await timeline(reader)).slice(0, 20)).toEqual([...bigs].reverse().slice(0, 20));

    const unfollowed = await measured((a) => setUserFollow(a, reader, big, false));
    expect(unfollowed.result.isFollowing).toBe(false);
    expect(unfollowed.roundTrips).toBe(1);
    expect(unfollowed.rowsRead).toBeLessThanOrEqual(200);
    expect(await timeline(reader)).toEqual([...others].reverse());
  });

  it("a followee who posted more than UNFOLLOW_REMOVE echos into the timeline: the unfollow stays bounded and the page shows none of theirs", async () => {
    const [reader, prolific, other] = [await user("fc_reader2"), await user("fc_prolific"), await user("fc_other2")];
    await setUserFollow(app(), reader, other, true);
    await setUserFollow(app(), reader, prolific, true);
    // as if fan-out had brought 300 of the prolific author's posts, interleaved with the other's
    const mixed = [...(await echos(prolific, 300, Date.now() - 1_000_000)), ...(await echos(other, 30, Date.now() - 1_000_000 + 150))];
    await intoTimeline(reader, mixed);
    const unfollowed = await measured((a) => setUserFollow(a, reader, prolific, false));
    expect(unfollowed.rowsRead).toBeLessThanOrEqual(200);
    expect(await timeline(reader)).toHaveLength(330 - UNFOLLOW_REMOVE);
    // the page steps over the unfollowed author's entries within its scan window (issue 32:
    // a short page with its cursor, not an unbounded walk), so by cursor: the other's 30, none of theirs
    const shown: { author: { _id: string } }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listFollowing(app(), reader, { page: 1, limit: 50, cursor });
      shown.push(...page.echos);
      cursor = page.pagination.nextCursor ?? undefined;
    } while (cursor && ++pages < 20);
    expect(shown).toHaveLength(30);
    expect(shown.every((e) => e.author._id === other)).toBe(true);
  });

  it("a followee who reposted 600 echos and posted 600: the follow brings their newest 20 entries of both, the unfollow takes them out, ≤ 200 rows each (decision 027)", async () => {
    const [reader, sharer, author] = [await user("fc_reader3"), await user("fc_sharer"), await user("fc_author3")];
    const start = Date.now() - 3_000_000;
    const theirs = await echos(author, 600, start);
    const own = await echos(sharer, 600, start + 1);
    // the sharer's reposts of the author's echos, interleaved in time with the sharer's own echos
    const reposts = theirs.map((_, i) => newId(start + 2 + i));
    const inserts = reposts.map((id, i) => sql`INSERT INTO reposts (id, echo_id, user_id, created_at) VALUES (${id}, ${theirs[i]!}, ${sharer}, ${start + 2 + i})`);
    for (let i = 0; i < inserts.length; i += 200) await batch(app().db, inserts.slice(i, i + 200));
    const followed = await measured((a) => setUserFollow(a, reader, sharer, true));
    expect(followed.roundTrips).toBe(1);
    expect(followed.rowsRead).toBeLessThanOrEqual(200);
    const newest = [...own, ...reposts].sort().reverse().slice(0, 20);
    expect(await timeline(reader)).toEqual(newest);
    // the page shows them: reposts say who passed them on
    const page = await listFollowing(app(), reader, { page: 1, limit: 20 });
    // every entry of the timeline that is a repost shows as the sharer's repost (how many of the
    // newest 20 are reposts depends on ids made in the same millisecond: about half)
    const repostIds = new Set(reposts);
    expect(page.echos.map((e) => e.repost?._id ?? e._id)).toEqual(newest);
    expect(page.echos.filter((e) => e.repost?.by._id === sharer)).toHaveLength(newest.filter((id) => repostIds.has(id)).length);
    const unfollowed = await measured((a) => setUserFollow(a, reader, sharer, false));
    expect(unfollowed.rowsRead).toBeLessThanOrEqual(200);
    expect(await timeline(reader)).toEqual([]);
  });
});
