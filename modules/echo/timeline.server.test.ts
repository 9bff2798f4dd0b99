// The Following timeline's cap against real D1 (decision 013): the cron trims the timelines of the
// accounts that followed lately (a follow no longer trims in its batch: that read the whole
// timeline) and sweeps what their unfollows left; its walk trims timelines that fan-out grew. Timelines
// are filled with SQL here (a thousand posts through postEcho would hit the post rate limit).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, countAttempt, createDb, instrumentD1, select, sql, tables, testAppContext, WRITE_LIMITS, type D1Stats, type SQL } from "../shared/index.server";
import { backfillFollow, FOLLOW_BACKFILL, removeFollowee, TIMELINE_CAP, TRIM_OWNERS_PER_RUN, trimTimelines, UNFOLLOW_REMOVE } from "./timeline.server";
import { timelineOwners } from "./timeline-pages.server";

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user._id;

/** `count` echos by `authorId`, oldest first, a millisecond apart from `start`; their ids. */
async function echos(authorId: string, count: number, start: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => newId(start + i));
  const inserts: SQL[] = ids.map((id, i) => sql`INSERT INTO echos (id, author_id, content, tags, created_at) VALUES (${id}, ${authorId}, 'x', '[]', ${start + i})`);
  for (let i = 0; i < inserts.length; i += 200) await batch(app().db, inserts.slice(i, i + 200));
  return ids;
}

/** The owner's timeline, newest first. */
async function timeline(ownerId: string): Promise<string[]> {
  const [rows] = await batch(app().db, [
    select({ echoId: tables.timelineEntries.echoId }, sql`FROM timeline_entries WHERE owner_id = ${ownerId} ORDER BY echo_id DESC`),
  ]);
  return rows.map((r) => r.echoId);
}

const follow = (ownerId: string, followeeId: string) =>
  batch(app().db, [
    sql`INSERT INTO user_follows (follower_id, followee_id, created_at) VALUES (${ownerId}, ${followeeId}, ${Date.now()})`,
    backfillFollow(ownerId, followeeId),
    // what the follow limit writes on every follow or unfollow call (the cron finds the account by it)
    countAttempt(`follow:${ownerId}`, Date.now() - (Date.now() % WRITE_LIMITS.follow.windowMs)),
  ]);

describe("one's own echos in Following (issue 29)", () => {
  it("a follow brings the follower's own newest echos from before too; the cron's sweep keeps them", async () => {
    const owner = await user("own_tl_owner");
    const followee = await user("own_tl_followee");
    const start = Date.now() - 3_600_000;
    // written with SQL: echos from before posts added their author's own row
    const mine = await echos(owner, FOLLOW_BACKFILL + 5, start);
    const theirs = await echos(followee, 2, start + 100);
    await follow(owner, followee);
    const expected = [...mine.slice(-FOLLOW_BACKFILL), ...theirs].sort().reverse();
    expect(await timeline(owner)).toEqual(expected);
    await trimTimelines(env);
    expect(await timeline(owner)).toEqual(expected);
  });
});

describe("the Following timeline's cap", () => {
  it("the cron's walk cuts a timeline grown past the cap back to its newest TIMELINE_CAP entries", async () => {
    const [owner, author] = [await user("tl_owner"), await user("tl_author")];
    const ids = await echos(author, TIMELINE_CAP + 37, Date.now() - 10_000_000);
    // as if fan-out had brought each of them
    for (let i = 0; i < ids.length; i += 200) {
      await batch(app().db, ids.slice(i, i + 200).map((id) => sql`INSERT INTO timeline_entries (owner_id, echo_id) VALUES (${owner}, ${id})`));
    }
    expect(await timeline(owner)).toHaveLength(TIMELINE_CAP + 37);

    // the walk visits every user within a round (it wraps around after the last slice)
    let trimmed = 0;
    for (let run = 0; run < 100; run++) {
      const result = await trimTimelines(env);
      trimmed += result.trimmed;
      if (result.owners < TRIM_OWNERS_PER_RUN) break;
    }
    expect(trimmed).toBe(37);
    expect(await timeline(owner)).toEqual([...ids].reverse().slice(0, TIMELINE_CAP));
    // nothing left to trim: the next round changes nothing
    expect((await trimTimelines(env)).trimmed).toBe(0);
  });

  it("a follow backfills the followee's newest echos without trimming; the next cron run trims that timeline to the cap", async () => {
    const [owner, old, fresh] = [await user("tl_o2"), await user("tl_old"), await user("tl_fresh")];
    const olds = await echos(old, TIMELINE_CAP + 5, Date.now() - 20_000_000);
    const freshes = await echos(fresh, FOLLOW_BACKFILL + 3, Date.now() - 1_000_000);
    await follow(owner, old);
    for (let i = 0; i < olds.length; i += 200) {
      await batch(app().db, olds.slice(i, i + 200).map((id) => sql`INSERT OR IGNORE INTO timeline_entries (owner_id, echo_id) VALUES (${owner}, ${id})`));
    }
    await follow(owner, fresh);
    const newestFresh = [...freshes].reverse().slice(0, FOLLOW_BACKFILL);
    const whole = [...newestFresh, ...[...olds].reverse()];
    expect(await timeline(owner)).toEqual(whole);
    // the cron's first slice (any users) also takes the accounts that followed lately
    await trimTimelines(env);
    expect(await timeline(owner)).toEqual(whole.slice(0, TIMELINE_CAP));
  });

  it("the cron sweeps what an unfollow left of the followee (past UNFOLLOW_REMOVE), and nothing else", async () => {
    const [owner, prolific, kept] = [await user("tl_o3"), await user("tl_prolific"), await user("tl_kept")];
    await follow(owner, prolific);
    await follow(owner, kept);
    // as if fan-out had brought 100 of the prolific author's posts and 5 of the other's
    const posts = await echos(prolific, 100, Date.now() - 5_000_000);
    const keptPosts = await echos(kept, 5, Date.now() - 4_000_000);
    await batch(app().db, [...posts, ...keptPosts].map((id) => sql`INSERT OR IGNORE INTO timeline_entries (owner_id, echo_id) VALUES (${owner}, ${id})`));
    // the unfollow's own batch removes the newest UNFOLLOW_REMOVE
    await batch(app().db, [removeFollowee(owner, prolific), sql`DELETE FROM user_follows WHERE follower_id = ${owner} AND followee_id = ${prolific}`]);
    expect(await timeline(owner)).toHaveLength(100 - UNFOLLOW_REMOVE + 5);
    await trimTimelines(env);
    expect(await timeline(owner)).toEqual([...keptPosts].reverse());
  });
});

describe("timelineOwners (live updates on Following, decision 016)", () => {
  it("names the readers whose timeline holds the echo or will (followers the queue has not reached, the author), reading a few rows per reader, not per follower", async () => {
    const author = await user("tl_live_author");
    const [echo] = await echos(author, 1, Date.now() - 1000);
    // 300 timelines hold the echo (as the post's fan-out writes them); two of them are open readers
    const owners = Array.from({ length: 300 }, () => newId());
    for (let i = 0; i < owners.length; i += 100) {
      await batch(app().db, [sql`INSERT INTO users (id, user_name, password_hash, created_at)
        SELECT value, 'tl_live_' || key || '_' || ${i}, 'x', 0 FROM json_each(${JSON.stringify(owners.slice(i, i + 100))})`]);
      await batch(app().db, owners.slice(i, i + 100).map((id) => sql`INSERT INTO timeline_entries (owner_id, echo_id) VALUES (${id}, ${echo!})`));
    }
    const stranger = await user("tl_live_stranger");
    // a follower whose row the change stream has not written yet (a post writes FANOUT_INLINE in its batch)
    const pending = await user("tl_live_pending");
    await batch(app().db, [sql`INSERT INTO user_follows (follower_id, followee_id, created_at) VALUES (${pending}, ${author}, 0)`]);
    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    const db = createDb(instrumentD1(env.DB, stats));
    const readers = [owners[7]!, stranger, owners[250]!, pending, author];
    expect(await timelineOwners(db, { id: echo!, authorId: author }, readers)).toEqual(new Set([owners[7], owners[250], pending, author]));
    expect(stats.roundTrips).toBe(1);
    // the readers' list and a primary-key probe or two each (5 readers); filtering the echo's
    // timeline rows instead would read all 300 of them
    expect(stats.rowsRead).toBeLessThan(20);
    expect(await timelineOwners(db, { id: echo!, authorId: author }, [])).toEqual(new Set());
  });
});
