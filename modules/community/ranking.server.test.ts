import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { postEcho, setLike, shareEcho } from "../echo/index.server";
import { testAppContext } from "../shared/index.server";
import { popularEchos, trendingTags } from "./community.server";
import { kvKeys, runRanking } from "./ranking.server";

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user;

describe("ranking pass (cron) against real D1 and KV", () => {
  it("ranks popular echos per period × sort and trending tags, with known answers", async () => {
    const [a, b, c] = [await user("rk_a"), await user("rk_b"), await user("rk_c")];
    const e1 = await postEcho(app(), a._id, { content: "one", tags: ["hot", "x"] });
    const e2 = await postEcho(app(), a._id, { content: "two", tags: ["hot"] });
    const e3 = await postEcho(app(), b._id, { content: "three", tags: ["cold"] });
    for (const u of [a, b, c]) await setLike(app(), u._id, e2._id, true);
    await setLike(app(), b._id, e1._id, true);
    await shareEcho(app(), c._id, e3._id);

    const first = await runRanking(env);
    expect(first.changed).toBeGreaterThan(0);
    expect(Number(await env.KV.get(kvKeys.version))).toBe(first.version);

    const names = async (period: "today" | "all", sort: "likes" | "shares" | "recent" | "comments") =>
      (await popularEchos(app(), a._id, period, sort, 10)).map((e) => e.content);
    expect(await names("today", "likes")).toEqual(["two", "one", "three"]);
    expect(await names("all", "likes")).toEqual(["two", "one", "three"]);
    expect(await names("today", "shares")).toEqual(["three", "two", "one"]);
    expect(await names("today", "recent")).toEqual(["three", "two", "one"]);
    expect((await popularEchos(app(), a._id, "today", "likes", 1))[0]).toMatchObject({ content: "two", likes: 3, isLiked: true });

    const tags = await trendingTags(app(), 10);
    expect(tags.map((t) => [t.name, t.recentEchosCount, t.count])).toEqual([
      ["hot", 2, 2],
      ["cold", 1, 1],
      ["x", 1, 1],
    ]);
  });

  it("is incremental: after one new echo the next pass reads rows in proportion to the change", async () => {
    const u = await user("rk_inc");
    for (let i = 0; i < 60; i++) await postEcho(app(), u._id, { content: `bulk ${i}`, tags: [`bulk${i % 7}`] });
    const full = await runRanking(env);
    const idle = await runRanking(env);
    expect(idle.changed).toBe(0);
    await postEcho(app(), u._id, { content: "fresh", tags: ["bulk1"] });
    const one = await runRanking(env);
    expect(one.changed).toBe(2); // the echo and its tag
    // beyond an idle pass (a fixed cost: reading the published top lists), a change costs a
    // few index rows in each of the 16 popular lists — not a scan of the 60+ echos stored
    const perEcho = one.rowsRead - idle.rowsRead;
    expect(perEcho).toBeLessThan(16 * 8);
    for (let i = 0; i < 5; i++) await postEcho(app(), u._id, { content: `more ${i}`, tags: ["bulk2"] });
    const five = await runRanking(env);
    expect(five.rowsRead - idle.rowsRead).toBeLessThan(5 * 16 * 8);
    expect(full.rowsRead).toBeGreaterThan(one.rowsRead);
    console.warn(
      `ranking rows read: first pass ${full.rowsRead}, idle ${idle.rowsRead}, one echo ${one.rowsRead}, five echos ${five.rowsRead}`,
    );
    expect((await popularEchos(app(), u._id, "today", "recent", 1))[0]?.content).toBe("more 4");
  });

  it("serves from D1 when the KV cache misses, and replaces a stale version", async () => {
    const u = await user("rk_kv");
    await postEcho(app(), u._id, { content: "kv", tags: ["kvtag"] });
    const { version } = await runRanking(env);
    await env.KV.delete(kvKeys.tags(version));
    expect((await trendingTags(app(), 100)).map((t) => t.name)).toContain("kvtag");
    await postEcho(app(), u._id, { content: "kv2", tags: ["newer"] });
    const next = await runRanking(env);
    expect(next.version).toBe(version + 1);
    expect((await trendingTags(app(), 100)).map((t) => t.name)).toContain("newer");
  });

  it("leaves a limited account's echos out of the ranked list itself: the page stays full (issue 32)", async () => {
    const [spam, clean, v1, v2, v3] = [await user("rk_spam"), await user("rk_clean"), await user("rk_v1"), await user("rk_v2"), await user("rk_v3")];
    // ten of the limited account's echos rank above ten others (three likes against two)
    for (let i = 0; i < 10; i++) {
      const top = await postEcho(app(), spam._id, { content: `spam ${i}`, tags: ["rkmod"] });
      const next = await postEcho(app(), clean._id, { content: `clean ${i}`, tags: ["rkmod"] });
      for (const u of [v1, v2, v3]) await setLike(app(), u._id, top._id, true);
      for (const u of [v1, v2]) await setLike(app(), u._id, next._id, true);
    }
    // a moderator's limit (decision 029): the account's entry in the moderation set
    await env.DB.prepare(
      `INSERT INTO moderation_set (id, entries) VALUES (1, json_object(?1, 1)) ON CONFLICT (id) DO UPDATE SET entries = json_set(entries, '$."' || ?1 || '"', 1)`,
    ).bind(`u:${spam._id}`).run();
    await runRanking(env);
    const shown = await popularEchos(app(), v1._id, "today", "likes", 10);
    // before, the list held the ten and the page hydrated 15 (5 spare): 5 echos shown
    expect(shown).toHaveLength(10);
    expect(shown.filter((e) => e.author._id === spam._id)).toEqual([]);
    // the limit lifted, the next pass ranks them again
    await env.DB.prepare(`UPDATE moderation_set SET entries = json_remove(entries, '$."' || ?1 || '"') WHERE id = 1`).bind(`u:${spam._id}`).run();
    await runRanking(env);
    expect((await popularEchos(app(), v1._id, "today", "likes", 10)).filter((e) => e.author._id === spam._id)).toHaveLength(10);
  });
});

describe("a ranking pass that fails part-way", () => {
  it("leaves the previous rankings and the change log; the next pass completes", async () => {
    const u = await user("rk_fail");
    await postEcho(app(), u._id, { content: "before", tags: ["failtag"] });
    const ok = await runRanking(env);
    await postEcho(app(), u._id, { content: "after", tags: ["failtag"] });
    // the second D1 batch (the main, atomic one) fails
    let batches = 0;
    const flaky = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "batch") {
          return (stmts: D1PreparedStatement[]) => (++batches === 2 ? Promise.reject(new Error("D1_ERROR: injected")) : target.batch(stmts));
        }
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await expect(runRanking({ ...env, DB: flaky } as Env)).rejects.toThrow(/injected/);
    expect(Number(await env.KV.get(kvKeys.version))).toBe(ok.version);
    expect((await popularEchos(app(), u._id, "today", "recent", 1))[0]?.content).toBe("before");
    const next = await runRanking(env);
    expect(next.changed).toBeGreaterThan(0);
    expect((await popularEchos(app(), u._id, "today", "recent", 1))[0]?.content).toBe("after");
    expect((await trendingTags(app(), 100)).find((t) => t.name === "failtag")?.recentEchosCount).toBe(2);
  });
});
