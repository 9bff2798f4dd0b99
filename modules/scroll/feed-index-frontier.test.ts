// An index that stops short of its rule's last match (a capped index: complete 0, its frontier at
// the last entry it keeps) answers every page in full: the page that meets the frontier goes on
// with the engine in a second round trip, and the pages after it come from the engine, so a
// reader scrolling by cursor sees every match once, in the feed's order, each page within the
// budget (decision 020). The index is built as the backfill leaves a capped one, in real D1.
// In an isolate that never saw the feed, a page read after the scroll's own lookup has no second
// round trip left: it ends at the frontier with its cursor; the home page's lookup of the stored
// scroll learns the index, so its first page comes from it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, sql, testAppContext } from "../shared/index.server";
import { forgetIndex, indexStatements } from "./feed-index.server";
import { findMyScroll } from "./lists.server";
import { DOCUMENT_CANDIDATE_ROWS, scrollEchos } from "./pages.server";
import { scrollWebFeed } from "./web-feed.server";
import { ruleKeyOf } from "./rule.server";
import { feedScroll, thinRule, writeThinMatches } from "./thin-matches.test-support";
import { measuredPage } from "./measured-page.test-support";

const app = () => testAppContext(env);
const KEPT = 50; // entries the capped index keeps (the third page of 20 crosses its frontier)
const MATCHES = 130;


describe("a capped feed index", { timeout: 60_000 }, () => {
  for (const sortBy of ["newestFirst", "mostLiked"] as const) {
    it(`${sortBy}: pages by cursor cross the index's frontier full, every match once in order, within budget`, async () => {
      const tag = `frontier${sortBy.toLowerCase()}`;
      const me = (await signup(app(), { userName: `fr_${sortBy.slice(0, 6).toLowerCase()}`, password: "pass1234" })).user._id;
      // thin matches: a reader's engine window finds fewer than a screen of them
      const matches = await writeThinMatches(app(), me, tag, MATCHES, Date.now() - 1_000_000);
      const rule = thinRule(tag, sortBy);
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
      const scrollId = newId(Date.now());
      await batch(app().db, [feedScroll(scrollId, me, rule, ruleKeyOf(rule))]);
      // the isolate learns the rule and that its index is built from a first read; the pages
      // after it go in the scroll lookup's round trip, so the engine may continue in a second
      await scrollEchos(app(), me, scrollId, { page: 1, limit: 20 });
      const seen: string[] = [];
      const sizes: number[] = [];
      const cursors: (string | undefined)[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 20; n++) {
        cursors.push(cursor);
        const { page, stats } = await measuredPage(me, scrollId, cursor);
        expect(stats.roundTrips).toBeLessThanOrEqual(2);
        expect(stats.rowsRead).toBeLessThanOrEqual(200);
        if (n < 2) expect(page.feedIndex).toBe("ready");
        seen.push(...page.echos.map((e) => e._id));
        sizes.push(page.echos.length);
        cursor = page.pagination.nextCursor ?? undefined;
        if (!cursor) break;
      }
      expect(seen).toEqual(expected.map((m) => m.id));
      // the pages up to the frontier are full; the one across it has the index's 10 and what the
      // engine finds in the window the page's worst case leaves it (an echo reads up to 5 rows:
      // decision 027, "Pages sized by rows per echo"); past it, the engine's windows of these
      // thin matches: never an empty page
      expect(sizes.slice(0, 2)).toEqual([20, 20]);
      expect(sizes[2]).toBeGreaterThan(KEPT - 40);
      expect(Math.min(...sizes)).toBeGreaterThan(0);

      // An isolate that never saw this scroll (another scroll of the same rule, the index
      // forgotten) looks the scroll up first: the page that meets the frontier is read in the
      // second round trip, so it ends there with its cursor, and the engine's page follows.
      const other = newId(Date.now() + 1);
      await batch(app().db, [feedScroll(other, me, rule, ruleKeyOf(rule))]);
      forgetIndex(ruleKeyOf(rule));
      const cold = await measuredPage(me, other, cursors[2]);
      expect(cold.stats.roundTrips).toBe(2);
      expect(cold.page.feedIndex).toBe("ready");
      expect(cold.page.echos.map((e) => e._id)).toEqual(expected.slice(40, KEPT).map((m) => m.id));
      // the home page in such an isolate: the stored scroll's lookup learns its index, so the
      // first page (in the document's smaller window, where the engine finds only a few of
      // these thin matches) is read from it, full, in the next round trip
      forgetIndex(ruleKeyOf(rule));
      const stored = await findMyScroll(app(), me, other);
      const home = await scrollEchos(app(), me, stored!, { page: 1, limit: 20 }, Date.now(), DOCUMENT_CANDIDATE_ROWS);
      expect(home.echos.map((e) => e._id)).toEqual(expected.slice(0, 20).map((m) => m.id));
      // a web feed (or any page after getScroll) in such an isolate: the lookup learns it too
      forgetIndex(ruleKeyOf(rule));
      const feedXml = await scrollWebFeed(app(), other);
      expect(feedXml.entries.map((e) => e._id).slice(0, 20)).toEqual(expected.slice(0, 20).map((m) => m.id));
      const next = await measuredPage(me, other, cold.page.pagination.nextCursor ?? "none");
      expect(next.stats.roundTrips).toBeLessThanOrEqual(2);
      expect(next.page.echos.length).toBeGreaterThan(0);
      expect(next.page.echos.map((e) => e._id)).toEqual(expected.slice(KEPT, KEPT + next.page.echos.length).map((m) => m.id));
    });
  }
});
