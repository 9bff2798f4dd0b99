// Test support for the feed index's depth tests (feed-index-depth, feed-index-extend): echos
// written with SQL (more than the post limit allows), and a feed paged to its end by cursor or by
// number as a GET reads each page, with every page's budget and fullness checked.
import { expect } from "vitest";
import { newId } from "../shared/index";
import { batch, configureRequestDb, createDb, instrumentD1, select, sql, testAppContext, type AppContext, type Change, type D1Stats, type SQL } from "../shared/index.server";
import { consumeChanges } from "./feed-index-consumer.server";
import { viewerKeyOf, type ViewerKind } from "./feed-viewer-index.server";
import { indexStatements } from "./feed-index.server";
import { backfillStep } from "./feed-index-backfill.server";
import { scrollEchos } from "./pages.server";
import { ruleKeyOf } from "./rule.server";
import { feedScroll } from "./thin-matches.test-support";
import type { FeedRule } from "./schema";

/** A newest-first any-of rule of no tag yet: the tests' rules are spread from it. */
export const baseRule: FeedRule = { tagMatchType: "any", includedTags: [], excludedTags: [], authors: [], sortBy: "newestFirst", sortTimeRange: "allTime", excludeLikedEchos: false, startDate: null, endDate: null };

/** A scroll of `rule` whose index the backfill builds with cap `cap`. */
export async function cappedScroll(app: AppContext, creatorId: string, rule: FeedRule, cap: number): Promise<string> {
  const key = ruleKeyOf(rule);
  const scrollId = newId(Date.now());
  await batch(app.db, [...indexStatements(rule, sql`1`), feedScroll(scrollId, creatorId, rule, key)]);
  for (let step = 0; step < 50 && (await backfillStep(app.db, key, Date.now(), undefined, cap)); step++);
  return scrollId;
}

/** 420 echos carrying one to three of the ten `tags` (one in three two, one in seven three: found
 * by two or three of an any-of rule's streams), likes spread. Oldest first. */
export const writeTenTagEchos = (app: AppContext, authorId: string, start: number, tags: string[]) =>
  writeEchos(
    app,
    authorId,
    start,
    420,
    (i) => [...new Set([tags[i % 10]!, ...(i % 3 === 0 ? [tags[(i + 3) % 10]!] : []), ...(i % 7 === 0 ? [tags[(i + 5) % 10]!] : [])])],
    (i) => (i * 13) % 17,
  );

/** The queue's consumer over everything `sent` holds (what the pages and writes sent), until nothing is left. */
export async function drainQueue(app: AppContext, sent: Change[]): Promise<number> {
  let n = 0;
  for (let c = sent.shift(); c !== undefined; c = sent.shift(), n++) await consumeChanges(app, app.db, [c]);
  return n;
}

/** A viewer index's state (decision 033; `hide`: the hiding kind, or a kind named): complete, and its entries. */
export const viewerIndexState = async (app: AppContext, ruleKey: string, viewerId: string, hide: boolean | ViewerKind = false) =>
  (
    await batch(app.db, [
      select(
        { complete: sql<number>`complete`, entries: sql<number>`(SELECT count(*) FROM feed_index_entries WHERE index_id = feed_indexes.id)` },
        sql`FROM feed_indexes WHERE rule_key = ${viewerKeyOf(ruleKey, viewerId, hide)}`,
      ),
    ])
  )[0][0];

/** The test env with a queue that keeps what the pages send (`sent`) for the test to run, or not. */
export function keptQueue(env: Env): { env: Env; sent: Change[] } {
  const sent: Change[] = [];
  return { sent, env: { ...env, FEED_EVENTS: { sendBatch: async (messages: { body: Change }[]) => void sent.push(...messages.map((m) => m.body)) } } as unknown as Env };
}

/** `count` echos one second apart from `start`, the i-th carrying `tagsOf(i)` and `likesOf(i)` likes. Their ids, oldest first. */
export async function writeEchos(
  app: AppContext,
  authorId: string,
  start: number,
  count: number,
  tagsOf: (i: number) => string[],
  likesOf: (i: number) => number = () => 0,
): Promise<{ id: string; tags: string[]; likes: number }[]> {
  const names = [...new Set(Array.from({ length: count }, (_, i) => tagsOf(i)).flat())];
  const writes: SQL[] = names.map((t) => sql`INSERT INTO tags (name, created_at) VALUES (${t}, 0) ON CONFLICT DO NOTHING`);
  const echos = Array.from({ length: count }, (_, i) => ({ id: newId(start + i * 1000), tags: tagsOf(i), likes: likesOf(i), at: start + i * 1000 }));
  for (const e of echos) {
    const tags = JSON.stringify(e.tags);
    writes.push(
      sql`INSERT INTO echos (id, author_id, content, tags, created_at, likes_count) VALUES (${e.id}, ${authorId}, 'depth', ${tags}, ${e.at}, ${e.likes})`,
      ...e.tags.map((t) => sql`INSERT INTO echo_tags (tag, echo_id, tags, likes_count) VALUES (${t}, ${e.id}, ${tags}, ${e.likes})`),
    );
  }
  await batch(app.db, writes);
  return echos;
}

/** A page by cursor as a GET reads it (its reads coalesced), numbered `page` (1 for a client's own cursor). */
export async function measured(env: Env, viewerId: string, scrollId: string, page: number, cursor: string | undefined) {
  const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
  const db = createDb(instrumentD1(env.DB, stats));
  configureRequestDb(db, { coalesce: true });
  const got = await scrollEchos(testAppContext(env, { db }), viewerId, scrollId, { page, limit: 20, cursor });
  return { got, stats };
}

export type Paging = {
  env: Env;
  viewerId: string;
  scrollId: string;
  expected: string[];
  byNumber: boolean;
  label: string;
  /** run after each page (the queue's consumer, between a reader's pages) */
  afterPage?: () => Promise<void>;
  /** a cursor handed over from another client: the pages start there (`expected`: what follows it) */
  from?: string;
};

/**
 * Every page of the scroll to its end, the whole the expected matches in order; each page full
 * (20, or all that is left); ≤ 2 round trips and ≤ 200 rows each.
 * Returns the max rows read and the pages' sizes.
 */
export async function pageToTheEnd(p: Paging): Promise<{ maxRows: number; sizes: number[] }> {
  const { env, viewerId, scrollId, expected, byNumber, label } = p;
  // the isolate learns the rule from a first read, as any reader's first page teaches it
  await scrollEchos(testAppContext(env), viewerId, scrollId, { page: 1, limit: 20 });
  const seen: string[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined = p.from;
  let maxRows = 0;
  for (let n = 1; n <= 400; n++) {
    const { got, stats } = await measured(env, viewerId, scrollId, byNumber ? n : 1, cursor);
    maxRows = Math.max(maxRows, stats.rowsRead);
    expect(stats.roundTrips, `${label} page ${n}`).toBeLessThanOrEqual(2);
    expect(stats.rowsRead, `${label} page ${n}`).toBeLessThanOrEqual(200);
    expect(got.echos.length, `${label} page ${n}`).toBe(Math.min(20, expected.length - seen.length));
    seen.push(...got.echos.map((e) => e._id));
    sizes.push(got.echos.length);
    cursor = got.pagination.nextCursor ?? undefined;
    if (!cursor) break;
    await p.afterPage?.();
  }
  expect(seen, label).toEqual(expected);
  return { maxRows, sizes };
}

/** pageToTheEnd by cursor, then by number (" by number" added to the label): the max rows a page read. */
export async function pageBothWays(p: Omit<Paging, "byNumber">): Promise<number> {
  let maxRows = 0;
  for (const byNumber of [false, true]) maxRows = Math.max(maxRows, (await pageToTheEnd({ ...p, byNumber, label: `${p.label}${byNumber ? " by number" : ""}` })).maxRows);
  return maxRows;
}
