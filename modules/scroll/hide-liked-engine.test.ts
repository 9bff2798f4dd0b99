// A rule the index does not keep (no tag, no author: the echos table in its own order) read by
// someone who hides what they liked comes from the engine's window. Since pages were sized for
// 5 rows an echo (decision 027) that window held 18 entries, so such a feed never showed a
// screen of 20 (8 of 597 public feeds of the 100,000-echo store). A page's own echos are ones the
// reader did not like, so their like probes read nothing: the window gets those rows back
// (decision 020, "Hide-liked readers of the engine"). Worst case here: every echo is a quote the
// reader reposted.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, forgetAllHints, sql, testAppContext } from "../shared/index.server";
import { measuredPage } from "./measured-page.test-support";

const app = () => testAppContext(env);
const ECHOS = 80;
// within the first 23 (the window now): 3 liked still leave a screen of 20
const LIKED = [1, 5, 9];

describe("a hide-liked reader of a feed the index does not keep", { timeout: 60_000 }, () => {
  it("gets a full first screen, each unliked echo once, every page within budget", async () => {
    const author = (await signup(app(), { userName: "hle_author", password: "pass1234" })).user._id;
    const reader = (await signup(app(), { userName: "hle_reader", password: "pass1234" })).user._id;
    const start = Date.now() - 10_000_000;
    const ids = Array.from({ length: ECHOS }, (_, i) => newId(start + i * 1000));
    const quoted = ids[0]!;
    await batch(app().db, [
      ...ids.map((id, i) =>
        i === 0
          ? sql`INSERT INTO echos (id, author_id, content, tags, created_at) VALUES (${id}, ${author}, 'the quoted one', '[]', ${start})`
          : sql`INSERT INTO echos (id, author_id, content, tags, created_at, quote_of_id) VALUES (${id}, ${author}, ${`quote ${i}`}, '[]', ${start + i * 1000}, ${quoted})`,
      ),
      ...ids.slice(1).map((id) => sql`INSERT INTO reposts (id, echo_id, user_id, created_at) VALUES (${newId(Date.now())}, ${id}, ${reader}, 0)`),
    ]);
    const newest = [...ids].reverse();
    await batch(app().db, LIKED.map((i) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${newest[i]!}, ${reader}, 0)`));
    const scrollId = newId(Date.now());
    await batch(app().db, [
      sql`INSERT INTO scrolls (id, creator_id, name, type, created_at, included_tags, excluded_tags, sort_by, exclude_liked_echos, rule_key)
          VALUES (${scrollId}, ${reader}, 'everything, hide liked', 'feed', 0, '[]', '[]', 'newestFirst', 1, '')`,
    ]);
    const expected = newest.filter((_, i) => !LIKED.includes(i));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 10; n++) {
      const { page, stats } = await measuredPage(reader, scrollId, cursor);
      if (n === 0) expect(page.echos.length, "first screen").toBe(20);
      expect(stats.rowsRead, `page ${n + 1}`).toBeLessThanOrEqual(200);
      expect(stats.roundTrips).toBeLessThanOrEqual(2);
      seen.push(...page.echos.map((e) => e._id));
      cursor = page.pagination.nextCursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual(expected);
    // page 1 again, now that this isolate knows the feed (its page rides in the lookup's round
    // trip, guarded to the scroll's rule: that guard read a scroll row per echo, 206 rows), and
    // from a new isolate that learns the rule from its KV hint (feed-hint.server.ts): the same
    await new Promise((r) => setTimeout(r, 200));
    for (const isolate of ["warm", "new, with the hint"]) {
      if (isolate !== "warm") forgetAllHints();
      const { page, stats } = await measuredPage(reader, scrollId, undefined);
      expect(page.echos.map((e) => e._id), isolate).toEqual(expected.slice(0, 20));
      expect(stats.rowsRead, isolate).toBeLessThanOrEqual(200);
      expect(stats.roundTrips, isolate).toBe(1);
    }
  });
});
