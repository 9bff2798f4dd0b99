// A post's and a delete's share of the Following timelines stays within the request budget
// (issue 28: a post read ~1 row per follower, 1,181 for 1,166; a delete's cascade ~3 per row,
// 3,566): the post writes its first FANOUT_INLINE followers' rows, the change stream the rest in
// slices; a delete's rows leave through the stream. Against real D1, the queue a plain array.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, CHAIN_STALL_MS, createDb, instrumentD1, select, sql, stalledChains, testAppContext, type Change, type D1Stats } from "../shared/index.server";
import { postEcho } from "./echo.server";
import { consumeEchoPurges, deleteEcho } from "./delete.server";
import { consumeTimelineChanges, FANOUT_INLINE, FANOUT_SLICE, REPLY_FANOUT_INLINE } from "./timeline.server";
import { listFollowing } from "./timeline-pages.server";

const FOLLOWERS = 2 * FANOUT_SLICE + 300;
let author = "";
let followers: string[] = [];

/** An app whose queue is `sent` (what sendChanges hands it), its D1 counted into `stats`. */
function queued(sent: Change[], stats?: D1Stats) {
  const queue = { sendBatch: async (messages: { body: Change }[]) => void sent.push(...messages.map((m) => m.body)) };
  const e = { ...env, FEED_EVENTS: queue } as unknown as Env;
  return testAppContext(e, stats ? { db: createDb(instrumentD1(env.DB, stats)) } : {});
}

/** Run the consumer over what is queued until nothing is left; the steps it took. */
async function drain(sent: Change[]): Promise<number> {
  let steps = 0;
  while (sent.length > 0) {
    const changes = sent.splice(0, 100);
    await consumeTimelineChanges(queued(sent), createDb(env.DB), changes);
    await consumeEchoPurges(queued(sent), createDb(env.DB), changes);
    steps++;
  }
  return steps;
}

const rowsOf = async (echoId: string) =>
  (await batch(createDb(env.DB), [select({ n: sql<number>`count(*)` }, sql`FROM timeline_entries WHERE echo_id = ${echoId}`)]))[0][0]!.n;

describe("a post's fan-out and a delete's removal through the change stream", () => {
  it(`an author with ${FOLLOWERS} followers: post and delete within 200 rows and 2 round trips; every timeline gets the echo, then loses it`, async () => {
    author = (await signup(testAppContext(env), { userName: "fan_author", password: "pass1234" })).user._id;
    followers = Array.from({ length: FOLLOWERS }, () => newId()).sort();
    for (let i = 0; i < followers.length; i += 500) {
      const part = JSON.stringify(followers.slice(i, i + 500));
      await batch(createDb(env.DB), [
        sql`INSERT INTO users (id, user_name, password_hash, created_at) SELECT value, 'fan_' || ${i} || '_' || key, 'x', 0 FROM json_each(${part})`,
        sql`INSERT INTO user_follows (follower_id, followee_id, created_at) SELECT value, ${author}, 0 FROM json_each(${part})`,
      ]);
    }
    const sent: Change[] = [];
    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    const echo = await postEcho(queued(sent, stats), author, { content: "to many", tags: [] });
    expect(stats.roundTrips).toBeLessThanOrEqual(2);
    expect(stats.rowsRead).toBeLessThanOrEqual(200);
    // the author's own row and the first followers' are there at once, the rest is queued
    expect(await rowsOf(echo._id)).toBe(FANOUT_INLINE + 1);
    expect(sent).toContainEqual({ type: "fanout", echoId: echo._id, authorId: author, after: "" });
    const first = await listFollowing(testAppContext(env), followers[0]!, { page: 1, limit: 5 });
    expect(first.echos.map((e) => e._id)).toEqual([echo._id]);
    // a slice per step from the first follower (the batch's rows are ignored): 2,300 take three steps
    expect(await drain(sent)).toBe(3);
    expect(await rowsOf(echo._id)).toBe(FOLLOWERS + 1);
    const last = await listFollowing(testAppContext(env), followers[FOLLOWERS - 1]!, { page: 1, limit: 5 });
    expect(last.echos.map((e) => e._id)).toEqual([echo._id]);
    // a repeated message writes nothing and stops where the first did
    await consumeTimelineChanges(queued(sent), createDb(env.DB), [{ type: "fanout", echoId: echo._id, authorId: author, after: followers[FANOUT_SLICE - 1]! }]);
    await drain(sent);
    expect(await rowsOf(echo._id)).toBe(FOLLOWERS + 1);

    const deletion: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    await deleteEcho(queued(sent, deletion), author, echo._id);
    expect(deletion.roundTrips).toBeLessThanOrEqual(2);
    expect(deletion.rowsRead).toBeLessThanOrEqual(200);
    expect(sent).toContainEqual({ type: "unfanout", echoId: echo._id });
    // before the consumer ran, no page shows it (the page joins the echo)
    const meanwhile = await listFollowing(testAppContext(env), followers[FOLLOWERS - 1]!, { page: 1, limit: 5 });
    expect(meanwhile.echos).toEqual([]);
    // (no likes: deleted in the request) 2,401 rows: slices of 1,000, 1,000 and 401
    expect(await drain(sent)).toBe(3);
    expect(await rowsOf(echo._id)).toBe(0);
    // a fan-out step that comes after the delete (a slow queue) writes nothing and goes no further
    await consumeTimelineChanges(queued(sent), createDb(env.DB), [{ type: "fanout", echoId: echo._id, authorId: author, after: "" }]);
    expect(sent).toEqual([]);
    expect(await rowsOf(echo._id)).toBe(0);
  });

  it("a fan-out whose message is lost (the post's, then a later step's) is finished by the repair pass's replay of its chain", async () => {
    const chains = async () =>
      (await batch(createDb(env.DB), [select({ n: sql<number>`count(*)` }, sql`FROM stream_chains WHERE key LIKE 'fanout:%'`)]))[0][0]!.n;
    const sent: Change[] = [];
    const echo = await postEcho(queued(sent), author, { content: "lost on its way", tags: [] });
    expect(sent.some((c) => c.type === "fanout")).toBe(true);
    // the post's messages are lost
    sent.length = 0;
    expect(await rowsOf(echo._id)).toBe(FANOUT_INLINE + 1);
    const later = Date.now() + CHAIN_STALL_MS + 1;
    // a chain that moved lately is the stream's: the pass leaves it
    expect(await stalledChains(createDb(env.DB), Date.now())).toEqual([]);
    // the pass (verticals/scheduled.ts replayChains) runs the stalled chain's next step: one slice
    const replay = await stalledChains(createDb(env.DB), later);
    expect(replay).toEqual([{ type: "fanout", echoId: echo._id, authorId: author, after: "" }]);
    await consumeTimelineChanges(queued(sent), createDb(env.DB), replay);
    expect(await rowsOf(echo._id)).toBe(FANOUT_SLICE + 1);
    // that step's own next message is lost too: a later pass picks the chain up where it stopped
    sent.length = 0;
    const again = await stalledChains(createDb(env.DB), Date.now() + CHAIN_STALL_MS + 1);
    expect(again).toEqual([{ type: "fanout", echoId: echo._id, authorId: author, after: followers[FANOUT_SLICE - 1] }]);
    await consumeTimelineChanges(queued(sent), createDb(env.DB), again);
    expect(await drain(sent)).toBe(1);
    expect(await rowsOf(echo._id)).toBe(FOLLOWERS + 1);
    // the last step ended the chain: nothing left to replay
    expect(await chains()).toBe(0);
    expect(await stalledChains(createDb(env.DB), Date.now() + 3_600_000)).toEqual([]);
    const last = await listFollowing(testAppContext(env), followers[FOLLOWERS - 1]!, { page: 1, limit: 5 });
    expect(last.echos.map((e) => e._id)).toEqual([echo._id]);
  });

  it("an author with few followers starts no chain; a deleted echo's chain ends at its next step", async () => {
    const few = (await signup(testAppContext(env), { userName: "fan_few", password: "pass1234" })).user._id;
    await postEcho(queued([]), few, { content: "to nobody", tags: [] });
    expect(await stalledChains(createDb(env.DB), Date.now() + 3_600_000)).toEqual([]);
    const sent: Change[] = [];
    const echo = await postEcho(queued(sent), author, { content: "gone soon", tags: [] });
    // (the deletion's own purge chain runs with it: both end)
    await deleteEcho(queued(sent), author, echo._id);
    await drain(sent);
    expect(await stalledChains(createDb(env.DB), Date.now() + 3_600_000)).toEqual([]);
  });

  it(`a reply by the author of ${FOLLOWERS} followers: its first ${REPLY_FANOUT_INLINE} in its batch (two probes each), within 200 rows; the stream brings the rest`, async () => {
    const sent: Change[] = [];
    const parent = await postEcho(queued([]), author, { content: "a thread's start", tags: [] });
    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    // every follower follows the parent's author (the author): the reply reaches all of them
    const reply = await postEcho(queued(sent, stats), author, { content: "and its reply", tags: [] }, parent._id);
    expect(stats.roundTrips).toBeLessThanOrEqual(2);
    // with 100 inline followers this read 223 rows on the bench store
    expect(stats.rowsRead).toBeLessThanOrEqual(200);
    expect(await rowsOf(reply._id)).toBe(REPLY_FANOUT_INLINE + 1);
    expect(sent).toContainEqual({ type: "fanout", echoId: reply._id, authorId: author, after: "", parentId: parent._id });
    await drain(sent);
    expect(await rowsOf(reply._id)).toBe(FOLLOWERS + 1);
  });
});
