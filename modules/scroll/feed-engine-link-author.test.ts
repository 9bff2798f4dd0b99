// The engine's tag streams test a limited (or hidden) author on the link (issue 32, decision 029,
// "Tag streams test the link's author"): a tag link carries its echo's author (migration 0035), so a
// page of a feed the engine serves (its index not built: the queue never drained) steps over a
// limited account's entries on the entry, inside its scan, where it handed them to the hydration,
// which dropped them after the scan's cut — pages short, or a second round trip to fill them.
// One prolific account wrote 60 % of a tag's 600 echos and is limited; a reader who hides nothing
// and a hider (who also blocks an author: 70 % hidden) read five engine tag feeds (any-of with an
// echo in two streams, all-of, an exclusion, most liked, oldest first) by cursor and by number to
// their end: every page full, each visible echo once and in order, ≤ 2 round trips, ≤ 200 rows.
// Before the limit, the reader who hides nothing reads every page full as well (rows printed: the
// same as main's). Real D1.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, sql, testAppContext } from "../shared/index.server";
import { baseRule, keptQueue, measured, pageBothWays } from "./depth-paging.test-support";
import { walk } from "./feed-fill.test-support";
import { blockFor, writeHiderEchos, type HiderEcho } from "./hider-echos.test-support";
import { ruleKeyOf } from "./rule.server";
import { feedScroll } from "./thin-matches.test-support";
import type { FeedRule } from "./schema";

const { env: queued, sent } = keptQueue(env);
const app = () => testAppContext(queued);
const ECHOS = 600;
/** Echo i's author: the prolific account (0) for six in ten, else author i % 10 (6–9). */
const authorOf = (i: number) => (i % 10 < 6 ? 0 : i % 10);

describe("the engine's tag streams, a limited author stepped over on the link", { timeout: 900_000 }, () => {
  it("five engine tag feeds, read by a reader who hides nothing and by a hider, before and after a prolific account is limited: every page full, each visible echo once, ≤ 2 rt, ≤ 200 rows", async () => {
    const [t, u, x] = ["lkt", "lku", "lkx"];
    // every echo carries t; one in three u too (found by both streams of an any-of rule); one in seven x
    const { authors, echos } = await writeHiderEchos(app(), t, "lk", "lk_a", ECHOS, () => [], Date.now() - 10_000_000, 1000, {
      authorOf,
      tagsOf: (i) => [...(i % 3 === 0 ? [u] : []), ...(i % 7 === 0 ? [x] : [])],
    });
    const tagsOf = new Map(echos.map((e, i) => [e.id, [t, ...(i % 3 === 0 ? [u] : []), ...(i % 7 === 0 ? [x] : [])]]));
    const creator = (await signup(app(), { userName: "lk_c", password: "pass1234" })).user._id;
    const rules: [string, FeedRule, (e: HiderEcho) => boolean][] = [
      ["any-of t, u", { ...baseRule, includedTags: [t, u] }, () => true],
      ["all-of t, u", { ...baseRule, tagMatchType: "all", includedTags: [t, u] }, (e) => tagsOf.get(e.id)!.includes(u)],
      ["t but not x", { ...baseRule, includedTags: [t], excludedTags: [x] }, (e) => !tagsOf.get(e.id)!.includes(x)],
      ["t, most liked", { ...baseRule, includedTags: [t], sortBy: "mostLiked" }, () => true],
      ["t, oldest first", { ...baseRule, includedTags: [t], sortBy: "oldestFirst" }, () => true],
    ];
    const feeds = await Promise.all(
      rules.map(async ([label, rule, matches]) => {
        // a feed keyed to its index, which no queue builds (the pages' messages are kept): the engine's pages
        const scrollId = newId(Date.now());
        await batch(app().db, [feedScroll(scrollId, creator, rule, ruleKeyOf(rule))]);
        const order = echos.filter(matches).sort((a, b) =>
          rule.sortBy === "mostLiked" ? b.likes - a.likes || (a.id < b.id ? 1 : -1) : rule.sortBy === "oldestFirst" ? (a.id < b.id ? -1 : 1) : a.id < b.id ? 1 : -1,
        );
        return { label, scrollId, order };
      }),
    );
    const reader = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user._id;
    /** Each feed read to its end by cursor and by number: `strict`, every page full (pageBothWays),
     * else walked, each page by cursor but the last two at least `least` echos (0: counted and
     * printed only). Either way each visible echo once and in order, ≤ 2 rt, ≤ 200 rows. */
    const readAll = async (viewer: string, who: string, visible: (e: HiderEcho) => boolean, least: (label: string) => number | "strict") => {
      const rows: string[] = [];
      for (const f of feeds) {
        const expected = f.order.filter(visible).map((e) => e.id);
        const label = `${who}, ${f.label}`;
        const want = least(f.label);
        if (want === "strict") rows.push(`${f.label}: ${await pageBothWays({ env: queued, viewerId: viewer, scrollId: f.scrollId, expected, label })} rows`);
        else {
          // (the isolate learns the viewer from a first read, as pageBothWays does)
          await measured(queued, viewer, f.scrollId, 1, undefined);
          const w = await walk(queued, viewer, f.scrollId, expected, label);
          rows.push(`${f.label}: ${w.maxRows} rows, ${w.short} short of ${w.pages} [${w.sizes.join(" ")}]`);
          expect(Math.min(...w.sizes.slice(0, -2)), label).toBeGreaterThanOrEqual(want);
        }
      }
      // (no index was built: every page was the engine's)
      const first = await measured(queued, viewer, feeds[0]!.scrollId, 1, undefined);
      expect(first.got.feedIndex).not.toBe("ready");
      console.warn(`link author, ${who}:\n  ${rows.join("\n  ")}`);
    };

    // nothing limited: a reader who hides nothing (every echo)
    // (any-of t, u: an echo of u is in both streams, its second copy a miss — 18 a page at the window's
    // end, before this change too; the others full)
    await readAll(await reader("lk_p0"), "plain, no moderation", () => true, (f) => (f.startsWith("any-of") ? 18 : "strict"));

    // the prolific account limited: its echos leave the public lists (decision 029)
    await batch(app().db, [
      sql`INSERT INTO moderation_set (id, entries) VALUES (1, json_object(${`u:${authors[0]!}`}, 1))
        ON CONFLICT (id) DO UPDATE SET entries = json_set(entries, ${`$."u:${authors[0]!}"`}, 1)`,
    ]);
    await readAll(await reader("lk_p1"), "plain, one limited", (e) => e.author !== 0, () => "strict");
    const hider = await reader("lk_h1");
    await blockFor(app(), sent, hider, authors[6]!, true);
    // (30 % visible, and any-of's copies besides: 18–20 a page, where main's were 9)
    await readAll(hider, "hider, one limited", (e) => e.author !== 0 && e.author !== 6, (f) => (f.startsWith("any-of") ? 18 : "strict"));
  });
});
