import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { batch, select, sql, tables, testAppContext } from "../shared/index.server";
import { getEcho, postEcho, reportEcho, setLike, shareEcho } from "./echo.server";
import { deleteEcho } from "./purge.testing";
import { listEchos, listTag } from "./lists.server";

const app = () => testAppContext(env);
async function user(name: string) {
  return (await signup(app(), { userName: name, password: "pass1234" })).user;
}

/** Every denormalised counter equals a COUNT(*) of the rows it counts. */
async function expectCountersExact() {
  const n = { n: sql<number>`COUNT(*)` };
  const [echoDrift, tagDrift, linkDrift, userDrift, stat] = await batch(app().db, [
    select(n, sql`FROM echos e WHERE e.likes_count != (SELECT COUNT(*) FROM likes l WHERE l.echo_id = e.id)
        OR e.shares_count != (SELECT COUNT(*) FROM shares s WHERE s.echo_id = e.id)`),
    select(n, sql`FROM tags t WHERE t.echo_count != (SELECT COUNT(*) FROM echo_tags et WHERE et.tag = t.name)
        OR t.echo_count <= 0`),
    select(n, sql`FROM echo_tags et JOIN echos e ON e.id = et.echo_id WHERE et.likes_count != e.likes_count OR et.tags != e.tags`),
    select(n, sql`FROM users u WHERE u.echos_count != (SELECT COUNT(*) FROM echos e WHERE e.author_id = u.id)`),
    select({ v: sql<number>`(SELECT value FROM stats WHERE key = 'echos')`, n: sql<number>`(SELECT COUNT(*) FROM echos)` }, sql``),
  ]);
  expect([echoDrift[0]!.n, tagDrift[0]!.n, linkDrift[0]!.n, userDrift[0]!.n]).toEqual([0, 0, 0, 0]);
  expect(stat[0]!.v).toBe(stat[0]!.n);
}

describe("echo services against real D1", () => {
  it("posts with tags, likes idempotently, shares once, and keeps every counter exact", async () => {
    const ann = await user("ann_svc");
    const ben = await user("ben_svc");
    const echo = await postEcho(app(), ann._id, { content: "hello", tags: ["tech", "life"] });
    expect(echo.tags.map((t) => t.name)).toEqual(["tech", "life"]);
    expect(echo.author).toEqual({ _id: ann._id, userName: "ann_svc" });

    expect(await setLike(app(), ben._id, echo._id, true)).toEqual({ likes: 1, isLiked: true });
    expect(await setLike(app(), ben._id, echo._id, true)).toEqual({ likes: 1, isLiked: true });
    expect(await setLike(app(), ann._id, echo._id, true)).toEqual({ likes: 2, isLiked: true });
    expect(await setLike(app(), ben._id, echo._id, false)).toEqual({ likes: 1, isLiked: false });
    expect(await setLike(app(), ben._id, echo._id, false)).toEqual({ likes: 1, isLiked: false });
    expect((await shareEcho(app(), ben._id, echo._id)).shares).toBe(1);
    expect((await shareEcho(app(), ben._id, echo._id)).shares).toBe(1);
    await expectCountersExact();

    expect((await getEcho(app(), ann._id, echo._id)).isLiked).toBe(true);
    expect((await getEcho(app(), ben._id, echo._id)).isLiked).toBe(false);
  });

  it("deletes for the author only; cascades keep counters exact and drop orphan tags", async () => {
    const cat = await user("cat_svc");
    const dan = await user("dan_svc");
    const a = await postEcho(app(), cat._id, { content: "a", tags: ["onlyhere", "shared"] });
    await postEcho(app(), dan._id, { content: "b", tags: ["shared"] });
    await setLike(app(), dan._id, a._id, true);
    await reportEcho(app(), dan._id, a._id, "spam");
    await expect(reportEcho(app(), dan._id, a._id, "again")).rejects.toMatchObject({ status: 409 });
    await expect(deleteEcho(app(), dan._id, a._id)).rejects.toMatchObject({ status: 403 });
    await deleteEcho(app(), cat._id, a._id);
    await expect(getEcho(app(), cat._id, a._id)).rejects.toMatchObject({ status: 404 });
    const [tags] = await batch(app().db, [
      select({ name: tables.tags.name, echoCount: tables.tags.echoCount }, sql`FROM tags WHERE name IN ('onlyhere', 'shared') ORDER BY name`),
    ]);
    expect(tags).toEqual([{ name: "shared", echoCount: 1 }]);
    await expectCountersExact();
  });

  it("a #tag typed in the text is a tag: stored, linked, counted and sent on the change stream", async () => {
    const gus = await user("gus_svc");
    const sent: unknown[] = [];
    const queue = { sendBatch: async (messages: { body: unknown }[]) => void sent.push(...messages.map((m) => m.body)) };
    const withQueue = testAppContext({ ...env, FEED_EVENTS: queue } as unknown as Env);
    const echo = await postEcho(withQueue, gus._id, { content: "my second try, #Intro #intro C# &#38; #typedsvc", tags: ["chosensvc"] });
    expect(echo.tags.map((t) => t.name)).toEqual(["chosensvc", "intro", "typedsvc"]);
    // sendChanges hands the batch to the queue at once (its send then runs under waitUntil)
    expect(sent).toEqual([{ type: "post", echo: expect.objectContaining({ id: echo._id, tags: ["chosensvc", "intro", "typedsvc"] }) }]);
    const [links] = await batch(app().db, [
      select({ tag: tables.echoTags.tag }, sql`FROM echo_tags WHERE echo_id = ${echo._id} ORDER BY tag`),
    ]);
    expect(links.map((l) => l.tag)).toEqual(["chosensvc", "intro", "typedsvc"]);
    const page = await listTag(app(), gus._id, "typedsvc", { orderBy: "newest", timeframe: "all" }, { page: 1, limit: 5 });
    expect(page.echos.map((e) => e._id)).toEqual([echo._id]);
    await expect(postEcho(app(), gus._id, { content: "#f1 #f2", tags: ["a1", "a2", "a3", "a4"] })).rejects.toMatchObject({ status: 400 });
    await expectCountersExact();
  });

  it("pages with a stable total order: cursor pages partition the list", async () => {
    const eve = await user("eve_svc");
    for (let i = 0; i < 7; i++) await postEcho(app(), eve._id, { content: `n${i}`, tags: ["paged"] });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 1; page <= 4; page++) {
      const res = await listEchos(app(), eve._id, { user: eve._id }, { page, limit: 3, cursor });
      seen.push(...res.echos.map((e) => e.content));
      expect(res.pagination.total).toBe(7);
      cursor = res.pagination.nextCursor ?? undefined;
      if (!res.pagination.hasMore) break;
    }
    expect(seen).toEqual(["n6", "n5", "n4", "n3", "n2", "n1", "n0"]);
    const offset = await listEchos(app(), eve._id, { user: eve._id }, { page: 2, limit: 3 });
    expect(offset.echos.map((e) => e.content)).toEqual(["n3", "n2", "n1"]);
    const oldest = await listTag(app(), eve._id, "#Paged", { orderBy: "oldest", timeframe: "all" }, { page: 1, limit: 2 });
    expect(oldest.echos.map((e) => e.content)).toEqual(["n0", "n1"]);
    expect(oldest.pagination).toMatchObject({ total: 7, totalPages: 4, hasMore: true });
  });
});

describe("write rate limits", () => {
  it(`answers 429 with Retry-After after ${100} posts in 5 minutes, and writes nothing more`, async () => {
    const fay = await user("fay_svc");
    // fixed 5-minute windows: 201 attempts put at least 101 in one window wherever the boundary falls
    let posted = 0;
    let error: { status: number; headers: Record<string, string> } | null = null;
    for (let i = 0; i < 201 && !error; i++) {
      await postEcho(app(), fay._id, { content: `p${i}`, tags: ["overlimit"] }).then(
        () => posted++,
        (e) => (error = e),
      );
    }
    expect(posted).toBeGreaterThanOrEqual(100);
    expect(error).toMatchObject({ status: 429 });
    expect(Number(error!.headers["Retry-After"])).toBeGreaterThan(0);
    const mine = await listEchos(app(), fay._id, { user: fay._id }, { page: 1, limit: 1 });
    expect(mine.pagination.total).toBe(posted);
    // the refused post left no echo and no tag link behind
    const [links] = await batch(app().db, [select({ echoCount: tables.tags.echoCount }, sql`FROM tags WHERE name = 'overlimit'`)]);
    expect(links[0]!.echoCount).toBe(posted);
    await expectCountersExact();
  });
});
