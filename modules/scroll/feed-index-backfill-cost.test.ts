// What a backfill costs D1 per entry it writes (decision 020, "The bench's own build"): a step
// reads the engine's window and writes the matches it found. It used to read each match hydrated
// as a page shows it (author, the viewer's like and repost, a quote, muted words) and keep only
// its id and like count; at the million-echo store's 5,700 indexes that was most of a build.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { batch, createDb, instrumentD1, sql, testAppContext, type D1Stats } from "../shared/index.server";
import { indexStatements } from "./feed-index.server";
import { backfillStep } from "./feed-index-backfill.server";
import { ruleKeyOf } from "./rule.server";
import { thinRule, writeThinMatches } from "./thin-matches.test-support";

const app = () => testAppContext(env);

describe("a backfill's cost", { timeout: 60_000 }, () => {
  it("reads about the engine's window and the entries it writes, not hydrated echos", async () => {
    const me = (await signup(app(), { userName: "backfill_cost", password: "pass1234" })).user._id;
    const now = Date.now();
    const matches = await writeThinMatches(app(), me, "costly", 400, now - 10_000_000);
    for (const sortBy of ["newestFirst", "mostLiked"] as const) {
      const rule = thinRule("costly", sortBy);
      await batch(app().db, indexStatements(rule, sql`1`, now));
      const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
      const db = createDb(instrumentD1(env.DB, stats));
      let messages = 0;
      while (await backfillStep(db, ruleKeyOf(rule), now)) messages++;
      const [built] = await batch(app().db, [
        sql`SELECT state, complete, (SELECT count(*) FROM feed_index_entries WHERE index_id = feed_indexes.id) AS entries FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)}`,
      ]);
      expect(built).toEqual([{ state: "ready", complete: 1, entries: matches.length }]);
      // measured: the engine's window over the 800 echos of the tag (with their exclusion test)
      // and each match's like count, 2,803 rows; the insert's probes, 1,200; the index's state, 2.
      // Hydrated matches cost one more row each (the author): 4,405 rows read in all before.
      expect(messages).toBe(0);
      expect(stats.roundTrips).toBe(4);
      expect(stats.rowsRead / matches.length).toBeLessThanOrEqual(10.05);
    }
  });
});
