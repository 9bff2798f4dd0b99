// Test support for the feed index's depth tests (feed-index-depth, feed-index-extend): echos
// written with SQL (more than the post limit allows), and a feed paged to its end by cursor or by
// number as a GET reads each page, with every page's budget and fullness checked.
import { expect } from "vitest";
import { newId } from "../shared/index";
import { batch, configureRequestDb, createDb, instrumentD1, sql, testAppContext, type AppContext, type D1Stats, type SQL } from "../shared/index.server";
import { scrollEchos } from "./pages.server";

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
async function measured(env: Env, viewerId: string, scrollId: string, page: number, cursor: string | undefined) {
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
