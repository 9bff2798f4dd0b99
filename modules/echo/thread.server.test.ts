// Replies and threads against real D1 (decision 024): counts kept by the triggers, the thread's
// shape and paging, a deleted parent's placeholder, and the thread read's cost — one batch and
// ≤ 200 rows read for an echo with 5,000 replies and under a 60-deep chain.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, createDb, select, sql, testAppContext } from "../shared/index.server";
import { getEcho, postEcho } from "./echo.server";
import { deleteEcho } from "./purge.testing";
import { getThread } from "./thread.server";
import { THREAD_ANCESTORS, THREAD_NESTED, THREAD_PAGE } from "./schema";

const app = () => testAppContext(env);
async function user(name: string) {
  return (await signup(app(), { userName: name, password: "pass1234" })).user;
}
const say = (content: string) => ({ content, tags: [] });

/** D1 that records each batch's rows read (every statement's, as Server-Timing sums them). */
function metered(batches: number[]) {
  const d1 = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          batches.push(results.reduce((sum, r) => sum + (r.meta.rows_read ?? 0), 0));
          return results;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return testAppContext(env, { db: createDb(d1) });
}

/** Every echo's comments_count equals the count of its live replies. */
async function expectReplyCountsExact() {
  const [drift] = await batch(app().db, [
    select({ n: sql<number>`COUNT(*)` }, sql`FROM echos e WHERE e.comments_count != (SELECT COUNT(*) FROM echos r WHERE r.parent_id = e.id)`),
  ]);
  expect(drift[0]!.n).toBe(0);
}

/** `count` replies to `parentId` by `authorId`, written in one statement (ids after now, in order). */
async function bulkReplies(parentId: string, rootId: string, authorId: string, count: number, aheadMs = 60_000) {
  const prefix = newId(Date.now() + aheadMs).slice(0, 10);
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO echos (id, author_id, content, tags, created_at, parent_id, root_id)
     SELECT ? || printf('%016d', i), ?, 'reply ' || i, '[]', ?, ?, ? FROM n`,
  )
    .bind(count, prefix, authorId, Date.now(), parentId, rootId)
    .run();
  return prefix;
}

describe("replies and threads (real D1)", () => {
  it("a reply is an echo with a parent: counts, notification, nesting, paging", async () => {
    const ann = await user("ann_thread");
    const ben = await user("ben_thread");
    const root = await postEcho(app(), ann._id, say("root"));
    const r1 = await postEcho(app(), ben._id, { content: "first #reply", tags: [] }, root._id);
    expect(r1.parentId).toBe(root._id);
    expect(r1.tags.map((t) => t.name)).toEqual(["reply"]);
    const r1a = await postEcho(app(), ann._id, say("under first"), r1._id);
    await postEcho(app(), ben._id, say("under first, again"), r1._id);
    const r1c = await postEcho(app(), ann._id, say("under first, third"), r1._id);
    const more: string[] = [];
    for (let i = 0; i < THREAD_PAGE + 2; i++) more.push((await postEcho(app(), ben._id, say(`reply ${i}`), root._id))._id);

    expect((await getEcho(app(), ann._id, root._id)).commentsCount).toBe(THREAD_PAGE + 3);
    expect((await getEcho(app(), ann._id, r1._id)).commentsCount).toBe(3);
    await expectReplyCountsExact();

    // the parent's author hears of each reply (it quotes the reply); never of their own reply
    const replyGroups = async () =>
      (await batch(app().db, [
        select({ recipient: sql<string>`recipient_id`, key: sql<string>`group_key`, actors: sql<number>`actor_count` }, sql`FROM notification_groups WHERE kind = 'reply' ORDER BY group_key`),
      ]))[0];
    const groups = await replyGroups();
    expect(groups.filter((g) => g.recipient === ann._id).map((g) => g.key)).toEqual([r1._id, ...more]);
    expect(groups.filter((g) => g.recipient === ben._id).map((g) => g.key)).toEqual([r1a._id, r1c._id]);
    // deleting a reply takes its notification with it
    const extra = await postEcho(app(), ben._id, say("soon gone"), root._id);
    expect(await replyGroups()).toHaveLength(groups.length + 1);
    await deleteEcho(app(), ben._id, extra._id);
    expect(await replyGroups()).toHaveLength(groups.length);

    const first = await getThread(app(), ann._id, root._id);
    expect(first.echo.echo?._id).toBe(root._id);
    expect(first.ancestors).toEqual([]);
    expect(first.earlierId).toBeNull();
    expect(first.replies.map((r) => r._id)).toEqual([r1._id, ...more.slice(0, THREAD_PAGE - 1)]);
    expect(first.replies[0]!.replies.map((r) => r._id)).toEqual([r1a._id, expect.any(String)].slice(0, THREAD_NESTED));
    expect(first.replies[0]!.moreReplies).toBe(true);
    expect(first.replies[1]!.moreReplies).toBe(false);
    expect(first.pagination.hasMore).toBe(true);
    const second = await getThread(app(), ann._id, root._id, first.pagination.nextCursor!);
    expect(second.replies.map((r) => r._id)).toEqual(more.slice(THREAD_PAGE - 1));
    expect(second.pagination).toEqual({ limit: THREAD_PAGE, hasMore: false, nextCursor: null });

    // from a nested reply: the chain above it, oldest first
    const deep = await getThread(app(), ben._id, r1a._id);
    expect(deep.ancestors.map((a) => a._id)).toEqual([root._id, r1._id]);
    expect(deep.echo.echo?.content).toBe("under first");
  });

  it("a missing parent is a 404 and writes nothing; deleting a parent keeps its thread readable", async () => {
    const cat = await user("cat_thread");
    const dan = await user("dan_thread");
    await expect(postEcho(app(), dan._id, say("to nowhere"), newId())).rejects.toMatchObject({ status: 404 });
    await expect(postEcho(app(), dan._id, say("to nowhere"), "not-an-id")).rejects.toMatchObject({ status: 404 });

    const root = await postEcho(app(), cat._id, say("root"));
    const middle = await postEcho(app(), dan._id, say("middle"), root._id);
    const leaf = await postEcho(app(), cat._id, say("leaf"), middle._id);
    await deleteEcho(app(), dan._id, middle._id);
    await expectReplyCountsExact();
    expect((await getEcho(app(), cat._id, root._id)).commentsCount).toBe(0);

    // the leaf's chain reads through the deleted echo
    const fromLeaf = await getThread(app(), cat._id, leaf._id);
    expect(fromLeaf.ancestors).toEqual([
      { _id: root._id, parentId: null, echo: expect.objectContaining({ _id: root._id }) },
      { _id: middle._id, parentId: root._id, echo: null },
    ]);
    // the root still lists the deleted reply (it has replies), with the leaf under it
    const fromRoot = await getThread(app(), cat._id, root._id);
    expect(fromRoot.replies.map((r) => [r._id, r.echo === null, r.replies.map((n) => n._id)])).toEqual([[middle._id, true, [leaf._id]]]);
    // the deleted echo's own page: a placeholder with its replies
    const own = await getThread(app(), cat._id, middle._id);
    expect(own.echo).toEqual({ _id: middle._id, parentId: root._id, echo: null });
    expect(own.replies.map((r) => r._id)).toEqual([leaf._id]);
    // a deleted echo without replies leaves nothing
    const lone = await postEcho(app(), cat._id, say("lone"), root._id);
    await deleteEcho(app(), cat._id, lone._id);
    await expect(getThread(app(), cat._id, lone._id)).rejects.toMatchObject({ status: 404 });
    await expectReplyCountsExact();
  });

  it("an author hidden from the viewer (a block) keeps their place in the thread, hidden; others see it", async () => {
    const ivy = await user("ivy_thread");
    const hal = await user("hal_thread");
    const gil = await user("gil_thread");
    const root = await postEcho(app(), ivy._id, say("root"));
    const hals = await postEcho(app(), hal._id, say("hal here"), root._id);
    const under = await postEcho(app(), ivy._id, say("under hal"), hals._id);
    // gil blocks hal (the safety triggers keep gil's hidden set)
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)").bind(gil._id, hal._id, Date.now()).run();
    const seenByGil = await getThread(app(), gil._id, root._id);
    expect(seenByGil.replies).toEqual([{ _id: hals._id, parentId: root._id, echo: null, hidden: true, replies: [expect.objectContaining({ _id: under._id })], moreReplies: false }]);
    expect((await getThread(app(), gil._id, under._id)).ancestors[1]).toEqual({ _id: hals._id, parentId: root._id, echo: null, hidden: true });
    expect((await getThread(app(), ivy._id, root._id)).replies[0]!.echo?.content).toBe("hal here");
  });

  it("reading a thread is one batch of ≤ 200 rows: 5,000 replies, and a 60-deep chain", { timeout: 120_000 }, async () => {
    const eve = await user("eve_thread");
    const fay = await user("fay_thread");
    const root = await postEcho(app(), eve._id, say("popular"));
    const prefix = await bulkReplies(root._id, root._id, fay._id, 5_000);
    expect((await getEcho(app(), eve._id, root._id)).commentsCount).toBe(5_000);
    // the first reply has 5,000 replies of its own (nested under a page's first item)
    const firstReply = `${prefix}${"1".padStart(16, "0")}`;
    await bulkReplies(firstReply, root._id, eve._id, 5_000, 120_000);

    const batches: number[] = [];
    const page1 = await getThread(metered(batches), eve._id, root._id);
    expect(page1.replies).toHaveLength(THREAD_PAGE);
    expect(page1.replies[0]!.replies).toHaveLength(THREAD_NESTED);
    const deepPage = await getThread(metered(batches), eve._id, root._id, page1.pagination.nextCursor!);
    expect(deepPage.replies[0]!._id > page1.replies.at(-1)!._id).toBe(true);
    // a reply deep in the 5,000: its chain and its own 5,000 replies
    await getThread(metered(batches), eve._id, firstReply);

    // a 60-deep chain, read from its leaf
    let parent = root;
    for (let i = 0; i < 60; i++) parent = await postEcho(app(), i % 2 ? eve._id : fay._id, say(`level ${i + 1}`), parent._id);
    const leaf = await getThread(metered(batches), eve._id, parent._id);
    expect(leaf.ancestors).toHaveLength(THREAD_ANCESTORS);
    expect(leaf.earlierId).toBe(leaf.ancestors[0]!.parentId);

    expect(batches).toHaveLength(4);
    for (const rows of batches) expect(rows, `rows read per thread read: ${batches.join(", ")}`).toBeLessThanOrEqual(200);
    await expectReplyCountsExact();
  });
});
