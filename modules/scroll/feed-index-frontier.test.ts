// An index that stops short of its rule's last match (a capped index: complete 0, its frontier at
// the last entry it keeps) answers every page in full: the page that meets the frontier goes on
// with the engine in a second round trip, and the pages after it come from the engine, so a
// reader scrolling by cursor sees every match once, in the feed's order, each page within the
// budget (decision 020). The index is built as the backfill leaves a capped one, in real D1.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, createDb, instrumentD1, sql, testAppContext, type D1Stats, type SQL } from "../shared/index.server";
import { indexStatements } from "./feed-index.server";
import { scrollEchos } from "./pages.server";
import { feedConfigOf, ruleKeyOf } from "./rule.server";
import type { FeedRule, Scroll } from "./schema";

const app = () => testAppContext(env);
const KEPT = 50; // entries the capped index keeps
const MATCHES = 130;

describe("a capped feed index", { timeout: 60_000 }, () => {
  for (const sortBy of ["newestFirst", "mostLiked"] as const) {
    it(`${sortBy}: pages by cursor cross the index's frontier full, every match once in order, within budget`, async () => {
      const tag = `frontier${sortBy.toLowerCase()}`;
      const me = (await signup(app(), { userName: `fr_${sortBy.slice(0, 6).toLowerCase()}`, password: "pass1234" })).user._id;
      // matches one in two among the author's echos (written with SQL: more than the post limit
      // allows); likes spread so the most-liked order differs from time
      const matches: { id: string; likes: number }[] = [];
      const writes: SQL[] = [sql`INSERT INTO tags (name, created_at) VALUES (${tag}, 0), ('noise', 0) ON CONFLICT DO NOTHING`];
      const start = Date.now() - 1_000_000;
      for (let i = 0; i < 2 * MATCHES; i++) {
        const id = newId(start + i * 1000);
        const tags = JSON.stringify(i % 2 === 0 ? [tag] : ["noise"]);
        const likes = i % 2 === 0 ? (i * 7) % 23 : 0;
        if (i % 2 === 0) matches.push({ id, likes });
        writes.push(
          sql`INSERT INTO echos (id, author_id, content, tags, created_at, likes_count) VALUES (${id}, ${me}, ${`echo ${i}`}, ${tags}, ${start + i * 1000}, ${likes})`,
          sql`INSERT INTO echo_tags (tag, echo_id, tags, likes_count) VALUES (${i % 2 === 0 ? tag : "noise"}, ${id}, ${tags}, ${likes})`,
        );
      }
      await batch(app().db, writes);
      const rule: FeedRule = {
        tagMatchType: "any",
        includedTags: [tag],
        excludedTags: [],
        authors: [],
        sortBy,
        sortTimeRange: "allTime",
        excludeLikedEchos: false,
        startDate: null,
        endDate: null,
      };
      const rank = (m: { likes: number }) => (sortBy === "mostLiked" ? m.likes : 0);
      const expected = [...matches].sort((a, b) => rank(b) - rank(a) || (a.id < b.id ? 1 : -1));
      // the index as a capped backfill leaves it: the first KEPT matches, ready, incomplete, its
      // frontier the last of them
      const floor = expected[KEPT - 1]!;
      await batch(app().db, [
        ...indexStatements(rule, sql`1`),
        ...expected.slice(0, KEPT).map((m) => sql`INSERT INTO feed_index_entries (index_id, rank, echo_id)
            SELECT id, ${rank(m)}, ${m.id} FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)}`),
        sql`UPDATE feed_indexes SET state = 'ready', complete = 0, cap = ${KEPT}, floor = ${floor.id}, floor_rank = ${rank(floor)}
            WHERE rule_key = ${ruleKeyOf(rule)}`,
      ]);
      const scroll = { _id: "x", type: "feed", feedConfig: feedConfigOf(rule, new Map()), echosCount: 0 } as unknown as Scroll;

      // the isolate learns the index is built from a first read (the engine's), then reads it
      await scrollEchos(app(), me, scroll, { page: 1, limit: 20 });
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 20; n++) {
        const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
        const measured = testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) });
        const page = await scrollEchos(measured, me, scroll, { page: 1, limit: 20, cursor });
        expect(stats.roundTrips).toBeLessThanOrEqual(2);
        expect(stats.rowsRead).toBeLessThanOrEqual(200);
        if (n < 2) expect(page.feedIndex).toBe("ready");
        seen.push(...page.echos.map((e) => e._id));
        sizes.push(page.echos.length);
        cursor = page.pagination.nextCursor ?? undefined;
        if (!cursor) break;
      }
      expect(seen).toEqual(expected.map((m) => m.id));
      // every page but the last is full: 20, 20, 20 (10 from the index, 10 from the engine), …
      expect(sizes).toEqual([20, 20, 20, 20, 20, 20, 10]);
    });
  }
});
