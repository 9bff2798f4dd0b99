// A feed page's statement is compound for a rule whose every entry matches (the plain head, and
// the probed scan of a viewer whom anything may hide: decision 026): hydrated by a plain JOIN,
// SQLite made the echos table the outer loop and probed the page — 1,225 rows for a page of 10
// over 400 echos. CROSS JOIN keeps the page outside (feed-rules.server.ts), in real D1.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { batch, createDb, instrumentD1, testAppContext, type D1Stats } from "../shared/index.server";
import { feedPageQuery, windowSize } from "./feed-rules.server";
import { previewFeed } from "./preview.server";
import type { FeedRule } from "./schema";

it("a page of the rule that matches every echo reads the page, not the store", { timeout: 120_000 }, async () => {
  const app = testAppContext(env);
  const me = (await signup(app, { userName: "pagejoin", password: "pass1234" })).user._id;
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
     INSERT INTO echos (id, author_id, content, tags, created_at) SELECT printf('01kb%022d', i), ?, 'x', '[]', 1 FROM n`,
  ).bind(me).run();
  const rule: FeedRule = { tagMatchType: "any", includedTags: [], excludedTags: [], authors: [], sortBy: "newestFirst", sortTimeRange: "allTime", excludeLikedEchos: false, startDate: null, endDate: null, replies: false };
  const measured = async (read: (a: ReturnType<typeof testAppContext>) => Promise<unknown>) => {
    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    await read(testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) }));
    return stats.rowsRead;
  };
  const page = await measured((a) => batch(a.db, [feedPageQuery(rule, me, Date.now(), null, 10, 0, windowSize(rule, 50))]));
  const preview = await measured((a) => previewFeed(a, me, rule, { page: 1, limit: 10 }));
  expect(page).toBeLessThanOrEqual(60);
  expect(preview).toBeLessThanOrEqual(150);
});
