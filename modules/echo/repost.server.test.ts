// Reposts and quotes against real D1 (decision 027): a repost reaches every follower's Following
// (the first FANOUT_INLINE in its batch, the rest through the change stream) at the time it was
// reposted, undo takes it away, the counts stay exact, and each write stays within the budget.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, createDb, instrumentD1, select, sql, testAppContext, type Change, type D1Stats } from "../shared/index.server";
import { postEcho } from "./echo.server";
import { deleteEcho } from "./purge.testing";
import { listQuotes, listReposters, setRepost } from "./repost.server";
import { consumeTimelineChanges, FANOUT_INLINE } from "./timeline.server";
import { listFollowing } from "./timeline-pages.server";

function queued(sent: Change[], stats?: D1Stats) {
  const queue = { sendBatch: async (messages: { body: Change }[]) => void sent.push(...messages.map((m) => m.body)) };
  const e = { ...env, FEED_EVENTS: queue } as unknown as Env;
  return testAppContext(e, stats ? { db: createDb(instrumentD1(env.DB, stats)) } : {});
}

async function drain(sent: Change[]) {
  while (sent.length > 0) await consumeTimelineChanges(queued(sent), createDb(env.DB), sent.splice(0, 100));
}

const user = async (name: string) => (await signup(testAppContext(env), { userName: name, password: "pass1234" })).user._id;
/** Accounts without a password (signing up hashes one: slow for a crowd). */
async function crowd(prefix: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => newId()).sort();
  await batch(createDb(env.DB), [
    sql`INSERT INTO users (id, user_name, password_hash, created_at) SELECT value, ${prefix} || key, 'x', 0 FROM json_each(${JSON.stringify(ids)})`,
  ]);
  return ids;
}
const counts = async (id: string) =>
  (await batch(createDb(env.DB), [
    select(
      {
        reposts: sql<number>`reposts_count`,
        quotes: sql<number>`quotes_count`,
        realReposts: sql<number>`(SELECT count(*) FROM reposts WHERE echo_id = ${id})`,
        realQuotes: sql<number>`(SELECT count(*) FROM echos WHERE quote_of_id = ${id})`,
      },
      sql`FROM echos WHERE id = ${id}`,
    ),
  ]))[0][0]!;

describe("reposts", () => {
  it("a repost reaches all followers of the reposter (inline, then the stream), sorted by when it was reposted; undo takes it away", async () => {
    const author = await user("rp_author");
    const reposter = await user("rp_reposter");
    const followers = Array.from({ length: FANOUT_INLINE + 150 }, () => newId()).sort();
    const part = JSON.stringify(followers);
    await batch(createDb(env.DB), [
      sql`INSERT INTO users (id, user_name, password_hash, created_at) SELECT value, 'rpf_' || key, 'x', 0 FROM json_each(${part})`,
      sql`INSERT INTO user_follows (follower_id, followee_id, created_at) SELECT value, ${reposter}, 0 FROM json_each(${part})`,
    ]);
    const sent: Change[] = [];
    const original = await postEcho(queued(sent), author, { content: "worth repeating", tags: [] });
    const later = await postEcho(queued(sent), reposter, { content: "my own, after it", tags: [] });
    await drain(sent);

    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    expect(await setRepost(queued(sent, stats), reposter, original._id, true)).toEqual({ reposts: 1, isReposted: true });
    expect(stats.roundTrips).toBe(1);
    expect(stats.rowsRead).toBeLessThanOrEqual(200);
    // again: once per user, nothing new written nor sent
    expect(await setRepost(queued(sent), reposter, original._id, true)).toEqual({ reposts: 1, isReposted: true });
    expect(sent.filter((c) => c.type === "fanout")).toHaveLength(1);

    const first = await listFollowing(testAppContext(env), followers[0]!, { page: 1, limit: 5 });
    // the repost is newer than the reposter's own later echo: it sorts by when it was reposted
    expect(first.echos.map((e) => [e._id, e.repost?.by.userName ?? null])).toEqual([
      [original._id, "rp_reposter"],
      [later._id, null],
    ]);
    const last = followers[followers.length - 1]!;
    expect((await listFollowing(testAppContext(env), last, { page: 1, limit: 5 })).echos.map((e) => e._id)).toEqual([later._id]);
    await drain(sent);
    expect((await listFollowing(testAppContext(env), last, { page: 1, limit: 5 })).echos.map((e) => e._id)).toEqual([original._id, later._id]);

    // the cursor is the entry's (the repost's) id: the next page starts after it, not after the echo
    const paged = await listFollowing(testAppContext(env), last, { page: 1, limit: 1 });
    const next = await listFollowing(testAppContext(env), last, { page: 2, limit: 1, cursor: paged.pagination.nextCursor! });
    expect(next.echos.map((e) => e._id)).toEqual([later._id]);

    const who = await listReposters(testAppContext(env), author, original._id, undefined);
    expect(who.users.map((u) => u.userName)).toEqual(["rp_reposter"]);

    // undo: gone from every page at once (the page joins the repost), the rows through the stream
    expect(await setRepost(queued(sent), reposter, original._id, false)).toEqual({ reposts: 0, isReposted: false });
    expect((await listFollowing(testAppContext(env), last, { page: 1, limit: 5 })).echos.map((e) => e._id)).toEqual([later._id]);
    expect(sent).toContainEqual({ type: "unfanout", echoId: expect.any(String) });
    await drain(sent);
    const [left] = await batch(createDb(env.DB), [
      select({ n: sql<number>`count(*)` }, sql`FROM timeline_entries t WHERE NOT EXISTS (SELECT 1 FROM echos WHERE id = t.echo_id)`),
    ]);
    expect(left[0]!.n).toBe(0);
    expect(await counts(original._id)).toMatchObject({ reposts: 0, realReposts: 0 });
  });

  it("counts stay exact under a storm of reposts, undos and deletions; a muted reposter's reposts leave Following", async () => {
    const author = await user("rs_author");
    const people = await crowd("rs_p", 12);
    const echo = await postEcho(testAppContext(env), author, { content: "storm", tags: [] });
    await Promise.all(people.map((p, i) => setRepost(testAppContext(env), p, echo._id, true).then(() => (i % 3 === 0 ? setRepost(testAppContext(env), p, echo._id, false) : null))));
    await Promise.all(people.slice(0, 6).map((p) => setRepost(testAppContext(env), p, echo._id, true)));
    const c = await counts(echo._id);
    expect(c.reposts).toBe(c.realReposts);
    expect(c.reposts).toBe(people.filter((_, i) => i < 6 || i % 3 !== 0).length);

    // a follower of a reposter who mutes the reposter: the repost leaves their Following
    const [reader] = (await crowd("rs_reader", 1)) as [string];
    await batch(createDb(env.DB), [sql`INSERT INTO user_follows (follower_id, followee_id, created_at) VALUES (${reader}, ${people[1]}, 0)`]);
    await setRepost(testAppContext(env), people[1]!, echo._id, false);
    await setRepost(testAppContext(env), people[1]!, echo._id, true);
    expect((await listFollowing(testAppContext(env), reader, { page: 1, limit: 5 })).echos.map((e) => e.repost?.by._id)).toEqual([people[1]]);
    await batch(createDb(env.DB), [sql`INSERT INTO mutes (muter_id, muted_id, created_at) VALUES (${reader}, ${people[1]}, 0)`]);
    expect((await listFollowing(testAppContext(env), reader, { page: 1, limit: 5 })).echos).toEqual([]);

    // a block either way: no repost (403), nothing written
    const [blocked] = (await crowd("rs_blocked", 1)) as [string];
    await batch(createDb(env.DB), [sql`INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (${author}, ${blocked}, 0)`]);
    await expect(setRepost(testAppContext(env), blocked, echo._id, true)).rejects.toMatchObject({ status: 403 });
    expect((await counts(echo._id)).realReposts).toBe(c.realReposts);

    // deleting the echo takes its reposts with it
    await deleteEcho(testAppContext(env), author, echo._id);
    const [gone] = await batch(createDb(env.DB), [select({ n: sql<number>`count(*)` }, sql`FROM reposts WHERE echo_id = ${echo._id}`)]);
    expect(gone[0]!.n).toBe(0);
  });
});

describe("quotes", () => {
  it("a quote embeds the echo (then 'deleted'), counts exactly, is listed; a block refuses it", async () => {
    const author = await user("q_author");
    const quoter = await user("q_quoter");
    const echo = await postEcho(testAppContext(env), author, { content: "quotable", tags: [], warning: "spoilers" });
    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    const quote = await postEcho(queued([], stats), quoter, { content: "so true #agreed", tags: [] }, undefined, echo._id);
    expect(stats.roundTrips).toBe(1);
    expect(stats.rowsRead).toBeLessThanOrEqual(200);
    expect(quote.quoted).toEqual({ _id: echo._id, state: "ok", author: { _id: author, userName: "q_author" }, content: "quotable", warning: "spoilers", createdAt: echo.createdAt });
    expect(quote.tags.map((t) => t.name)).toEqual(["agreed"]);
    await Promise.all(Array.from({ length: 8 }, (_, i) => postEcho(testAppContext(env), quoter, { content: `q${i}`, tags: [] }, undefined, echo._id)));
    let c = await counts(echo._id);
    expect(c).toMatchObject({ quotes: 9, realQuotes: 9 });

    const page1 = await listQuotes(testAppContext(env), author, echo._id, { page: 1, limit: 5 });
    expect(page1.echos).toHaveLength(5);
    expect(page1.pagination.total).toBe(9);
    const page2 = await listQuotes(testAppContext(env), author, echo._id, { page: 2, limit: 5, cursor: page1.pagination.nextCursor! });
    expect(page2.echos.map((e) => e._id)).toContain(quote._id);

    await deleteEcho(testAppContext(env), quoter, quote._id);
    c = await counts(echo._id);
    expect(c).toMatchObject({ quotes: 8, realQuotes: 8 });

    // the quoted echo hidden from the viewer: "unavailable"; deleted: "deleted"
    const other = (await listQuotes(testAppContext(env), author, echo._id, { page: 1, limit: 1 })).echos[0]!;
    await batch(createDb(env.DB), [sql`INSERT INTO mutes (muter_id, muted_id, created_at) VALUES (${quoter}, ${author}, 0)`]);
    const seenByQuoter = (await listQuotes(testAppContext(env), quoter, echo._id, { page: 1, limit: 1 })).echos[0]!;
    expect(seenByQuoter.quoted).toEqual({ _id: echo._id, state: "unavailable" });
    await deleteEcho(testAppContext(env), author, echo._id);
    const { getEcho } = await import("./echo.server");
    expect((await getEcho(testAppContext(env), author, other._id)).quoted).toEqual({ _id: echo._id, state: "deleted" });

    // across a block: 403, nothing written
    const target = await postEcho(testAppContext(env), author, { content: "mine", tags: [] });
    await batch(createDb(env.DB), [sql`INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (${author}, ${quoter}, 0)`]);
    await expect(postEcho(testAppContext(env), quoter, { content: "nope", tags: [] }, undefined, target._id)).rejects.toMatchObject({ status: 403 });
    expect(await counts(target._id)).toMatchObject({ quotes: 0, realQuotes: 0 });
    await expect(postEcho(testAppContext(env), quoter, { content: "nope", tags: [] }, undefined, newId())).rejects.toMatchObject({ status: 404 });
  });
});
