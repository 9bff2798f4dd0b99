// Blocks and mutes against the real schema (issue 32, decision 026): the hidden-author sets the
// triggers keep, what a block undoes and refuses, and the lists that leave hidden authors out
// with their pages still full.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { listEchos, listFollowing, listTag, postEcho, searchEchos, setLike } from "../echo/index.server";
import { batch, select, sql, tables, testAppContext, type Change } from "../shared/index.server";
import { setUserFollow } from "./profile.server";
import { MAX_BLOCKS, safetyList, setBlock, setMute } from "./safety.server";
import { addMutedWord, removeMutedWord } from "./muted-words.server";
import { pruneSessions } from "../../verticals/scheduled";

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user;

async function hiddenSet(userId: string): Promise<Record<string, number>> {
  const [rows] = await batch(app().db, [select({ authors: tables.hiddenAuthors.authors }, sql`FROM hidden_authors WHERE user_id = ${userId}`)]);
  return rows[0] ? (JSON.parse(rows[0].authors) as Record<string, number>) : {};
}

/** The recipient's notification groups, as the bell lists them (kinds). */
async function notificationKinds(userId: string): Promise<string[]> {
  const [rows] = await batch(app().db, [select({ kind: tables.notificationGroups.kind }, sql`FROM notification_groups WHERE recipient_id = ${userId}`)]);
  return rows.map((r) => r.kind);
}

const contents = (page: { echos: { content: string }[] }) => page.echos.map((e) => e.content);

describe("blocks and mutes (real D1)", { timeout: 60_000 }, () => {
  it("a block hides both ways, ends follows both ways and their notifications; unblock restores the set", async () => {
    const a = await user("blk_a");
    const b = await user("blk_b");
    await setUserFollow(app(), a._id, b._id, true);
    await setUserFollow(app(), b._id, a._id, true);
    await postEcho(app(), b._id, { content: `hello @blk_a #blocktag`, tags: [] });
    expect(await notificationKinds(a._id)).toEqual(expect.arrayContaining(["follow", "mention"]));

    const rel = await setBlock(app(), a._id, b._id, true);
    expect(rel).toEqual({ userId: b._id, blocked: true, muted: false, mutedUntil: null });
    expect(await hiddenSet(a._id)).toEqual({ [b._id]: 0 });
    expect(await hiddenSet(b._id)).toEqual({ [a._id]: 0 });
    const [follows] = await batch(app().db, [select({ n: sql<number>`count(*)` }, sql`FROM user_follows WHERE follower_id IN (${a._id}, ${b._id})`)]);
    expect(follows[0]!.n).toBe(0);
    expect(await notificationKinds(a._id)).toEqual([]);

    // neither sees the other's echos
    await postEcho(app(), a._id, { content: "from a #blocktag", tags: [] });
    expect(contents(await listEchos(app(), a._id, {}, { page: 1, limit: 20 }))).toEqual(["from a #blocktag"]);
    expect(contents(await listEchos(app(), b._id, {}, { page: 1, limit: 20 }))).toEqual(["hello @blk_a #blocktag"]);
    expect(contents(await listTag(app(), a._id, "blocktag", { orderBy: "newest", timeframe: "all" }, { page: 1, limit: 20 }))).toEqual(["from a #blocktag"]);
    expect(contents(await listEchos(app(), a._id, { user: b._id }, { page: 1, limit: 20 }))).toEqual([]);
    expect(contents(await searchEchos(app(), a._id, "blocktag", { page: 1, limit: 20 }))).toEqual(["from a #blocktag"]);

    // a blocked user cannot follow, like or mention-notify the blocker; nor the blocker them
    await expect(setUserFollow(app(), b._id, a._id, true)).rejects.toMatchObject({ status: 403 });
    await expect(setUserFollow(app(), a._id, b._id, true)).rejects.toMatchObject({ status: 403 });
    const [aEcho] = (await listEchos(app(), a._id, { user: a._id }, { page: 1, limit: 1 })).echos;
    await expect(setLike(app(), b._id, aEcho!._id, true)).rejects.toMatchObject({ status: 403 });
    await postEcho(app(), b._id, { content: "again @blk_a", tags: [] });
    expect(await notificationKinds(a._id)).toEqual([]);
    const [likes] = await batch(app().db, [select({ n: sql<number>`count(*)` }, sql`FROM likes WHERE user_id = ${b._id}`)]);
    expect(likes[0]!.n).toBe(0);

    expect((await safetyList(app(), a._id, "blocks", { limit: 10 })).users.map((u) => u.userName)).toEqual(["blk_b"]);
    expect((await safetyList(app(), b._id, "blocks", { limit: 10 })).users).toEqual([]);

    await setBlock(app(), a._id, b._id, false);
    expect(await hiddenSet(a._id)).toEqual({});
    expect(await hiddenSet(b._id)).toEqual({});
    expect(contents(await listEchos(app(), a._id, { user: b._id }, { page: 1, limit: 20 }))).toEqual(["again @blk_a", "hello @blk_a #blocktag"]);
  });

  it("a mute hides their echos and notifications from the muter only, until it ends", async () => {
    const a = await user("mut_a");
    const b = await user("mut_b");
    await setUserFollow(app(), a._id, b._id, true);
    await postEcho(app(), b._id, { content: "before the mute", tags: [] });
    const rel = await setMute(app(), a._id, b._id, "1h");
    expect(rel.muted).toBe(true);
    expect(Date.parse(rel.mutedUntil!)).toBeGreaterThan(Date.now() + 59 * 60_000);
    await postEcho(app(), b._id, { content: "hi @mut_a", tags: [] });
    expect(contents(await listFollowing(app(), a._id, { page: 1, limit: 20 }))).toEqual([]);
    expect(contents(await listEchos(app(), a._id, { user: b._id }, { page: 1, limit: 20 }))).toEqual([]);
    expect(await notificationKinds(a._id)).toEqual([]);
    // b still sees everything of a's, and a's follow of b stays
    await postEcho(app(), a._id, { content: "a speaks", tags: [] });
    expect(contents(await listEchos(app(), b._id, { user: a._id }, { page: 1, limit: 20 }))).toEqual(["a speaks"]);
    // the mute ends: its end in the past shows b again (the cron deletes the row later)
    await env.DB.prepare("UPDATE mutes SET expires_at = ? WHERE muter_id = ?").bind(Date.now() - 60_000, a._id).run();
    expect(contents(await listEchos(app(), a._id, { user: b._id }, { page: 1, limit: 20 }))).toEqual(["hi @mut_a", "before the mute"]);
    expect((await safetyList(app(), a._id, "mutes", { limit: 10 })).users).toEqual([]);
    // muted again, then unmuted
    await setMute(app(), a._id, b._id, "forever");
    expect(await hiddenSet(a._id)).toEqual({ [b._id]: 0 });
    expect((await safetyList(app(), a._id, "mutes", { limit: 10 })).users).toMatchObject([{ userName: "mut_b", until: null }]);
    await setMute(app(), a._id, b._id, false);
    expect(await hiddenSet(a._id)).toEqual({});
  });

  it("the cron deletes ended mutes, and their entries leave the set", async () => {
    const a = await user("sweep_a");
    const b = await user("sweep_b");
    const c = await user("sweep_c");
    await setMute(app(), a._id, b._id, "1h");
    await setMute(app(), a._id, c._id, "1d");
    await env.DB.prepare("UPDATE mutes SET expires_at = ? WHERE muter_id = ? AND muted_id = ?").bind(Date.now() - 60_000, a._id, b._id).run();
    const { mutes } = await pruneSessions(env, Date.now());
    expect(mutes).toBeGreaterThanOrEqual(1);
    expect(Object.keys(await hiddenSet(a._id))).toEqual([c._id]);
    expect((await safetyList(app(), a._id, "mutes", { limit: 10 })).users.map((u) => u.userName)).toEqual(["sweep_c"]);
  });

  it("a block and a mute of the same user: unblocking leaves the mute", async () => {
    const a = await user("both_a");
    const b = await user("both_b");
    await setMute(app(), a._id, b._id, "7d");
    await setBlock(app(), a._id, b._id, true);
    expect(await hiddenSet(a._id)).toEqual({ [b._id]: 0 });
    await setBlock(app(), a._id, b._id, false);
    const until = (await hiddenSet(a._id))[b._id]!;
    expect(until).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    // b blocks a too: one unblock does not unhide while the other's block holds
    await setBlock(app(), a._id, b._id, true);
    await setBlock(app(), b._id, a._id, true);
    await setBlock(app(), a._id, b._id, false);
    expect(await hiddenSet(a._id)).toEqual({ [b._id]: 0 });
    expect(await hiddenSet(b._id)).toEqual({ [a._id]: 0 });
  });

  it("bad input changes nothing: oneself, an unknown user, a bad cursor", async () => {
    const a = await user("bad_a");
    await expect(setBlock(app(), a._id, a._id, true)).rejects.toMatchObject({ status: 400, message: "You cannot block yourself" });
    await expect(setMute(app(), a._id, a._id, "1d")).rejects.toMatchObject({ status: 400, message: "You cannot mute yourself" });
    await expect(setBlock(app(), a._id, "0".repeat(26), true)).rejects.toMatchObject({ status: 404 });
    await expect(setMute(app(), a._id, "nope", "1d")).rejects.toMatchObject({ status: 404 });
    await expect(safetyList(app(), a._id, "blocks", { limit: 10, cursor: "garbage" })).rejects.toMatchObject({ status: 400 });
    expect(await hiddenSet(a._id)).toEqual({});
  });

  it(`lists page newest first by cursor; at most ${MAX_BLOCKS} blocks`, async () => {
    const a = await user("page_a");
    const others = [];
    for (let i = 0; i < 5; i++) others.push(await user(`page_o${i}`));
    for (const o of others) await setBlock(app(), a._id, o._id, true);
    const first = await safetyList(app(), a._id, "blocks", { limit: 3 });
    expect(first.users.map((u) => u.userName)).toEqual(["page_o4", "page_o3", "page_o2"]);
    expect(first.pagination.hasMore).toBe(true);
    const second = await safetyList(app(), a._id, "blocks", { limit: 3, cursor: first.pagination.nextCursor! });
    expect(second.users.map((u) => u.userName)).toEqual(["page_o1", "page_o0"]);
    expect(second.pagination).toEqual({ limit: 3, hasMore: false, nextCursor: null });
    // the bound: blocks past MAX_BLOCKS are refused and change nothing (accounts and rows
    // written directly, then one more through the service)
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${MAX_BLOCKS - 5})
       INSERT INTO users (id, user_name, password_hash, created_at) SELECT printf('zz%024d', i), 'bulk' || i, 'x', 1 FROM n`,
    ).run();
    await env.DB.prepare(`INSERT INTO blocks (blocker_id, blocked_id, created_at) SELECT ?, id, 1 FROM users WHERE id LIKE 'zz%'`).bind(a._id).run();
    const extra = await user("page_extra");
    await expect(setBlock(app(), a._id, extra._id, true)).rejects.toMatchObject({ status: 400, message: "You can block at most 2,000 accounts" });
    const [count] = await batch(app().db, [select({ n: sql<number>`count(*)` }, sql`FROM blocks WHERE blocker_id = ${a._id}`)]);
    expect(count[0]!.n).toBe(MAX_BLOCKS);
    expect(await hiddenSet(extra._id)).toEqual({});
  });

  it("a block, unblock, mute, unmute and muted-word change each send their hiding viewer indexes' rebuild (decision 033)", async () => {
    const sent: Change[] = [];
    const queued = { ...env, FEED_EVENTS: { sendBatch: async (messages: { body: Change }[]) => void sent.push(...messages.map((m) => m.body)) } } as unknown as Env;
    const q = () => testAppContext(queued);
    const a = await user("hix_a");
    const b = await user("hix_b");
    const hiding = () => sent.flatMap((c) => (c.type === "hiding" ? [c.viewerIds] : []));
    await setBlock(q(), a._id, b._id, true);
    await setBlock(q(), a._id, b._id, false);
    // a block hides both ways: both sides' indexes
    expect(hiding()).toEqual([[a._id, b._id], [a._id, b._id]]);
    sent.length = 0;
    await setMute(q(), a._id, b._id, "1d");
    await setMute(q(), a._id, b._id, false);
    const word = await addMutedWord(q(), a._id, { phrase: "hixword", action: "hide", contexts: ["feeds"], duration: "forever" });
    await removeMutedWord(q(), a._id, word._id);
    expect(hiding()).toEqual([[a._id], [a._id], [a._id], [a._id]]);
    // a refused write sends nothing
    sent.length = 0;
    await expect(setBlock(q(), a._id, "0".repeat(26), true)).rejects.toThrow();
    expect(hiding()).toEqual([]);
  });
});
