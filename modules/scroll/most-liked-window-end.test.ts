// A most-liked feed with a time window, read from the engine (past its index's frontier, or while
// it builds) walks its tags' likes order: the window's liked echos, its unliked ones newest first,
// then every older echo — all misses. The bench's 100,000-echo store showed it on an "all-of 1 tag,
// most liked this year" feed: pages 46–50 by number empty with more to come. Past an unliked entry
// older than the window nothing can match any more, so the feed ends there (decision 020), and a
// backfill's walk stops there too.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { newId } from "../shared/index";
import { batch, sql, testAppContext, toD1 } from "../shared/index.server";
import { feedPage, feedPageQuery, windowSize } from "./feed-rules.server";
import type { FeedRule } from "./schema";

const app = () => testAppContext(env);
const DAY = 86_400_000;

describe("a most-liked feed with a window, read from the engine", { timeout: 60_000 }, () => {
  it("ends after the window's echos instead of walking every older one", async () => {
    const me = (await signup(app(), { userName: "yearly_end", password: "pass1234" })).user._id;
    const now = Date.now();
    // 10 liked and 5 unliked echos this year, 300 unliked ones two years ago
    const echos = [
      ...Array.from({ length: 15 }, (_, i) => ({ at: now - (i + 1) * DAY, likes: i < 10 ? 10 - i : 0 })),
      ...Array.from({ length: 300 }, (_, i) => ({ at: now - 730 * DAY + i * 1000, likes: 0 })),
    ].map((e) => ({ ...e, id: newId(e.at) }));
    await batch(app().db, [
      sql`INSERT INTO tags (name, created_at) VALUES ('yearly', 0) ON CONFLICT DO NOTHING`,
      ...echos.flatMap((e) => [
        sql`INSERT INTO echos (id, author_id, content, tags, created_at, likes_count) VALUES (${e.id}, ${me}, 'y', '["yearly"]', ${e.at}, ${e.likes})`,
        sql`INSERT INTO echo_tags (tag, echo_id, tags, likes_count) VALUES ('yearly', ${e.id}, '["yearly"]', ${e.likes})`,
      ]),
    ]);
    const rule: FeedRule = {
      tagMatchType: "all",
      includedTags: ["yearly"],
      excludedTags: [],
      authors: [],
      sortBy: "mostLiked",
      sortTimeRange: "1year",
      excludeLikedEchos: false,
      startDate: null,
      endDate: null,
    };
    const window = windowSize(rule, 40);
    const seen: string[] = [];
    let seek: { id: string; likes?: number } | null = null;
    let pages = 0;
    for (; pages < 200; ) {
      const query = feedPageQuery(rule, me, now, seek, 5, 0, window);
      const result = await toD1(app().db, query).all<Record<string, unknown>>();
      const page = feedPage(rule, query.decode(result.results), 5, now);
      pages++;
      seen.push(...page.rows.map((e) => e.id));
      if (!page.hasMore) break;
      seek = { id: page.after!.id, likes: page.after!.likesCount };
    }
    expect(seen).toEqual(echos.slice(0, 15).map((e) => e.id));
    // the 15 matches in pages of 5, and the window that reached the old echos: not 300 / window more
    expect(window).toBeLessThan(15);
    expect(pages).toBeLessThanOrEqual(5);
  });
});
