// A hide-liked reader who liked long runs of a feed (issue 27, decision 033): reading the shared
// index on request costs two rows a liked entry, so a run of more than ~31 liked entries in 51 gave
// a short page. Their short page asks for their viewer index (the rule's index less what they
// liked), the queue's consumer builds it, and from then on every page — by cursor and by number —
// is full, each unliked match once in the feed's order, ≤ 2 round trips, ≤ 200 rows. Then they
// like and unlike more and new echos arrive: once the queue drains, the pages equal the reference
// again. Real D1, the real consumer run between pages as it runs beside them.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { postEcho, setLike } from "../echo/index.server";
import { batch, select, sql, testAppContext } from "../shared/index.server";
import { cappedScroll, drainQueue, keptQueue, pageBothWays, pageToTheEnd, viewerIndexState } from "./depth-paging.test-support";
import { ruleKeyOf } from "./rule.server";
import { thinRule, writeThinMatches } from "./thin-matches.test-support";
import { HIDING_INDEXES_MAX, KEPT_MS, VIEWER_INDEXES_MAX, viewerKeyOf, viewerStep } from "./feed-viewer-index.server";
import { indexPage, indexPageQuery } from "./feed-index-pages.server";
import type { Change } from "../shared/index.server";
import { scrollEchos } from "./pages.server";

const { env: queued, sent } = keptQueue(env);
const app = () => testAppContext(queued);
const MATCHES = 260;
const RUN = 200;

const drain = () => drainQueue(app(), sent);

const viewerIndex = (ruleKey: string, viewerId: string) => viewerIndexState(app(), ruleKey, viewerId);

describe("a hide-liked reader's viewer index", { timeout: 600_000 }, () => {
  for (const sortBy of ["newestFirst", "mostLiked"] as const) {
    for (const pattern of ["every one of the first 200", "all but one in three of the first 200"] as const) {
      it(`${sortBy}, liked ${pattern}: every page full once their index is built, and again after likes, unlikes and posts`, async () => {
        const who = `${sortBy === "mostLiked" ? "ml" : "nf"}${pattern.startsWith("every") ? "a" : "t"}`;
        const tag = `viewerix${who}`;
        const author = (await signup(app(), { userName: `vi_a_${who}`, password: "pass1234" })).user._id;
        const reader = (await signup(app(), { userName: `vi_r_${who}`, password: "pass1234" })).user._id;
        const matches = await writeThinMatches(app(), author, tag, MATCHES, Date.now() - 10_000_000);
        const rule = { ...thinRule(tag, sortBy), excludeLikedEchos: true };
        const likes = new Map(matches.map((m) => [m.id, m.likes]));
        const order = () => [...likes.keys()].sort((a, b) => (sortBy === "mostLiked" ? likes.get(b)! - likes.get(a)! : 0) || (a < b ? 1 : -1));
        // the reader's likes over the feed's first RUN matches (as they stand before the likes)
        const liked = new Set(order().filter((_, i) => i < RUN && (pattern.startsWith("every") || i % 3 !== 0)));
        await batch(app().db, [...liked].map((id) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${reader}, 0)`));
        for (const id of liked) likes.set(id, likes.get(id)! + 1);
        // the rule's shared index, built by the backfill (the counts as they are now)
        const scrollId = await cappedScroll(app(), reader, rule, 10_000);
        const expected = () => order().filter((id) => !liked.has(id));
        sent.length = 0;

        // before their index, the shared index's pages over the liked run (by cursor): a run the
        // page cannot step over gives a short page, which asks for the viewer's index
        let short = 0;
        let cursor: string | undefined;
        for (let n = 0; n < 12; n++) {
          const page = await scrollEchos(app(), reader, scrollId, { page: 1, limit: 20, cursor });
          if (page.echos.length < 20 && page.pagination.nextCursor) short++;
          cursor = page.pagination.nextCursor ?? undefined;
          if (!cursor) break;
        }
        // (one liked in three, newest first: 61 entries hold a screen — the shared index serves it)
        if (pattern.startsWith("every") || sortBy === "mostLiked") expect(short).toBeGreaterThan(0);
        expect(sent.some((c) => c.type === "viewer" && c.viewerId === reader)).toBe(short > 0);
        await drain();
        if (short > 0) {
          const built = await viewerIndex(ruleKeyOf(rule), reader);
          expect(built?.complete).toBe(1);
          expect(built?.entries).toBe(expected().length);
        }

        let maxRows = await pageBothWays({ env: queued, viewerId: reader, scrollId, expected: expected(), label: who, afterPage: async () => void (await drain()) });

        // more likes (the next 30 unliked), unlikes (every fourth liked), new matching posts
        const more = expected().slice(0, 30);
        const less = [...liked].filter((_, i) => i % 4 === 0);
        for (const id of more) {
          await setLike(app(), reader, id, true);
          liked.add(id);
          likes.set(id, likes.get(id)! + 1);
        }
        for (const id of less) {
          await setLike(app(), reader, id, false);
          liked.delete(id);
          likes.set(id, likes.get(id)! - 1);
        }
        for (let i = 0; i < 5; i++) {
          const echo = await postEcho(app(), author, { content: `new ${i} #${tag}`, tags: [tag] });
          likes.set(echo._id, 0);
        }
        await drain();
        // a first page (a short one asks for the index, if the reader had none yet), the queue drained
        await scrollEchos(app(), reader, scrollId, { page: 1, limit: 20 });
        await drain();
        maxRows = Math.max(maxRows, await pageBothWays({ env: queued, viewerId: reader, scrollId, expected: expected(), label: `${who} after`, afterPage: async () => void (await drain()) }));
        const after = await viewerIndex(ruleKeyOf(rule), reader);
        if (after) expect(after.entries).toBe(expected().length);
        console.warn(`viewer index ${who}: ${expected().length} unliked of ${likes.size}, max rows a page ${maxRows}`);
      });
    }
  }

  it("reaches deeper a slice at a time: a small cap, its frontier and near marker, each slice asked from its frontier, to the end", async () => {
    const author = (await signup(app(), { userName: "vi_a_slices", password: "pass1234" })).user._id;
    const reader = (await signup(app(), { userName: "vi_r_slices", password: "pass1234" })).user._id;
    const matches = await writeThinMatches(app(), author, "viewerixslices", 300, Date.now() - 10_000_000);
    const rule = { ...thinRule("viewerixslices", "newestFirst"), excludeLikedEchos: true };
    const newest = [...matches].reverse().map((m) => m.id);
    // liked: the first 40, then one in two
    const liked = new Set(newest.filter((_, i) => i < 40 || i % 2 === 0));
    await batch(app().db, [...liked].map((id) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${reader}, 0)`));
    await cappedScroll(app(), reader, rule, 10_000);
    const key = ruleKeyOf(rule);
    const state = async () =>
      (
        await batch(app().db, [
          select(
            { complete: sql<number>`complete`, floor: sql<string | null>`floor`, near: sql<string | null>`near`, cap: sql<number>`cap`, entries: sql<number>`(SELECT count(*) FROM feed_index_entries WHERE index_id = feed_indexes.id)` },
            sql`FROM feed_indexes WHERE rule_key = ${viewerKeyOf(key, reader)}`,
          ),
        ])
      )[0][0]!;
    const run = async (change: Change, cap = 15) => {
      for (let next: Change | null = change; next?.type === "viewer"; next = await viewerStep(app().db, next, Date.now(), cap, cap));
    };
    await run({ type: "viewer", ruleKey: key, viewerId: reader, floor: null });
    let st = await state();
    expect([st.complete, st.cap, st.entries]).toEqual([0, 15, 15]);
    expect(st.near).not.toBeNull();
    // a repeat of the make message, and an ask naming an old frontier, do nothing
    await run({ type: "viewer", ruleKey: key, viewerId: reader, floor: null });
    expect((await state()).entries).toBe(15);
    let slices = 0;
    while (!st.complete) {
      const floor = st.floor!;
      await run({ type: "viewer", ruleKey: key, viewerId: reader, floor });
      await run({ type: "viewer", ruleKey: key, viewerId: reader, floor });
      st = await state();
      slices++;
      expect(slices).toBeLessThan(20);
    }
    const expected = newest.filter((id) => !liked.has(id));
    expect(st.entries).toBe(expected.length);
    const [rows] = await batch(app().db, [indexPageQuery({ ...rule, excludeLikedEchos: false }, reader, null, 1000, undefined, Date.now(), null, viewerKeyOf(key, reader))]);
    expect(indexPage(rule, rows, 1000, { complete: true, floor: null }).rows.map((r) => r.id)).toEqual(expected);

    // a reader's pages over a viewer index made small (100 entries, its near marker 50 before its
    // frontier: more than two pages, as 1,000 of 2,000 are): the page past the marker asks for the
    // next slice (the consumer's own, 2,000), which lands before the reader meets the frontier —
    // every page full, each unliked match once, within budget, and nothing asked twice
    const other = { ...rule, endDate: Date.now() + 1_000_000_000 };
    const scrollId = await cappedScroll(app(), reader, other, 10_000);
    await run({ type: "viewer", ruleKey: ruleKeyOf(other), viewerId: reader, floor: null }, 100);
    sent.length = 0;
    await pageToTheEnd({ env: queued, viewerId: reader, scrollId, expected, byNumber: false, label: "small viewer index", afterPage: async () => void (await drain()) });
    expect(sent.length).toBe(0);
    const grown = (
      await batch(app().db, [select({ complete: sql<number>`complete` }, sql`FROM feed_indexes WHERE rule_key = ${viewerKeyOf(ruleKeyOf(other), reader)}`)])
    )[0][0]!;
    expect(grown.complete).toBe(1);
  });

  // each kind its own bound: a hider's indexes (`b:` here, `h:` alike) never evict their `v:` ones
  for (const [kind, max] of [["v", VIEWER_INDEXES_MAX], ["b", HIDING_INDEXES_MAX]] as const) {
    it(`holds at most ${max} ${kind}: indexes a viewer: a new one evicts the least recently read of its kind (entries, terms and row), not one read within KEPT_MS`, async () => {
      const author = (await signup(app(), { userName: `vi_a_evict${kind}`, password: "pass1234" })).user._id;
      const reader = (await signup(app(), { userName: `vi_r_evict${kind}`, password: "pass1234" })).user._id;
      const start = Date.now() - 10_000_000;
      await writeThinMatches(app(), author, `viewerixevict${kind}`, 10, start);
      // max + 1 rules (one end date each: another key), their shared indexes built
      const rules = Array.from({ length: max + 1 }, (_, i) => ({ ...thinRule(`viewerixevict${kind}`, "newestFirst"), excludeLikedEchos: true, endDate: start + 1_000_000_000 + i }));
      for (const rule of rules) await cappedScroll(app(), reader, rule, 10_000);
      const t0 = Date.now();
      const flags = kind === "b" ? { hide: true as const, liked: true as const } : {};
      const make = (i: number, now: number, touch = false, of = flags) =>
        viewerStep(app().db, { type: "viewer", ruleKey: ruleKeyOf(rules[i]!), viewerId: reader, floor: null, ...of, ...(touch ? { touch: true as const } : {}) }, now);
      // (a hider's `v:` index, the oldest of all: another kind's bound)
      if (kind === "b") await make(0, t0 - 1000, false, {});
      for (let i = 0; i < max; i++) await make(i, t0 + i);
      const heldKeys = async () => {
        const [rows] = await batch(app().db, [select({ ruleKey: sql<string>`rule_key`, id: sql<number>`id` }, sql`FROM feed_indexes WHERE viewer_id = ${reader}`)]);
        return rows;
      };
      // at the bound, every one read within KEPT_MS: the new one is not made, none evicted
      // (least recently read alone evicts, for a reader of more feeds in a cycle, the very one read next)
      await make(max, t0 + 200_000);
      const kept = await heldKeys();
      expect(kept.filter((h) => h.ruleKey.startsWith(`${kind}:`)).length).toBe(max);
      expect(new Set(kept.map((h) => h.ruleKey)).has(viewerKeyOf(ruleKeyOf(rules[max]!), reader, kind))).toBe(false);
      expect(kept.some((h) => h.ruleKey.startsWith(`${kind}:`) && !rules.slice(0, max).some((r) => h.ruleKey === viewerKeyOf(ruleKeyOf(r), reader, kind)))).toBe(false);
      // the first one read again (a page's touch), KEPT_MS later: the second is the least recently
      // read, and not read for KEPT_MS: the new one evicts it
      await make(0, t0 + KEPT_MS, true);
      await make(max, t0 + KEPT_MS + 200_000);
      const held = await heldKeys();
      const keys = new Set(held.map((h) => h.ruleKey));
      expect(held.filter((h) => h.ruleKey.startsWith(`${kind}:`)).length).toBe(max);
      expect(keys.has(viewerKeyOf(ruleKeyOf(rules[1]!), reader, kind))).toBe(false);
      expect(keys.has(viewerKeyOf(ruleKeyOf(rules[0]!), reader, kind))).toBe(true);
      expect(keys.has(viewerKeyOf(ruleKeyOf(rules[max]!), reader, kind))).toBe(true);
      if (kind === "b") expect(keys.has(viewerKeyOf(ruleKeyOf(rules[0]!), reader))).toBe(true);
      // nothing of the evicted one is left behind
      const [left] = await batch(app().db, [
        select(
          { entries: sql<number>`(SELECT count(*) FROM feed_index_entries WHERE index_id NOT IN (SELECT id FROM feed_indexes))`, terms: sql<number>`(SELECT count(*) FROM feed_rule_terms WHERE index_id NOT IN (SELECT id FROM feed_indexes))` },
          sql``,
        ),
      ]);
      expect(left[0]).toEqual({ entries: 0, terms: 0 });
    });
  }
});
