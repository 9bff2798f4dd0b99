// Test support for the KV feed hints (decision 020, "A cold isolate's first page"): an env whose KV
// calls are counted and whose queue is kept, the hint KV holds for a scroll, and a population of
// rules of more than 5 streams over echos that carry one to three of their tags.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { encodeCursor } from "../shared/index";
import { forgetAllHints, testAppContext } from "../shared/index.server";
import { baseRule, keptQueue, measured, writeTenTagEchos } from "./depth-paging.test-support";
import type { FeedRule } from "./schema";

export const hintKey = (scrollId: string) => `feed-hint:1:${scrollId}`;

/** The test env with its queue kept (never drained) and its KV calls counted. */
export function countedEnv() {
  const { env: queued, sent } = keptQueue(env);
  const kv = { reads: 0, writes: 0 };
  const KV = {
    get: (key: string, type: "json") => (kv.reads++, env.KV.get(key, type)),
    put: (key: string, value: string, options?: KVNamespacePutOptions) => (kv.writes++, env.KV.put(key, value, options)),
  } as unknown as KVNamespace;
  return { env: { ...queued, KV } as Env, kv, sent };
}

/** The hint KV holds for a scroll, once a page's write (in the background) has landed. */
export async function hintOf(scrollId: string, rule?: FeedRule): Promise<{ rule: FeedRule; reach: unknown } | null> {
  for (let i = 0; i < 40; i++) {
    const hint = await env.KV.get<{ rule: FeedRule; reach: unknown }>(hintKey(scrollId), "json");
    if (hint && (!rule || JSON.stringify(hint.rule.includedTags) === JSON.stringify(rule.includedTags))) return hint;
    await new Promise((r) => setTimeout(r, 50));
  }
  return env.KV.get<{ rule: FeedRule; reach: unknown }>(hintKey(scrollId), "json");
}

export type Match = { id: string; likes: number };
/** The cursor a page after the match `e` starts from. */
export const cursorAt = (rule: FeedRule, e: Match) => encodeCursor(rule.sortBy === "mostLiked" ? { l: e.likes, id: e.id } : { id: e.id });

/** Three rules of 7–10 tag streams over 420 echos of `prefix`0–9 tags, with their matches in feed order. */
export async function population(me: string, prefix: string) {
  const TEN = Array.from({ length: 10 }, (_, i) => `${prefix}${i}`);
  const echos = await writeTenTagEchos(testAppContext(env), me, Date.now() - 30_000_000, TEN);
  const matching = (tags: string[]) => echos.filter((e) => e.tags.some((t) => tags.includes(t)));
  const seven = TEN.slice(0, 7);
  const eight = TEN.slice(2, 10);
  return [
    { label: "any of 10, oldest first", rule: { ...baseRule, includedTags: TEN, sortBy: "oldestFirst" } as FeedRule, expected: echos as Match[] },
    { label: "any of 7, newest first", rule: { ...baseRule, includedTags: seven }, expected: matching(seven).reverse() },
    {
      label: "any of 8 less one, most liked",
      rule: { ...baseRule, includedTags: eight, excludedTags: [TEN[4]!], sortBy: "mostLiked" } as FeedRule,
      expected: [...matching(eight)].filter((e) => !e.tags.includes(TEN[4]!)).sort((a, b) => b.likes - a.likes || (a.id < b.id ? 1 : -1)),
    },
  ];
}

/**
 * Pages of a scroll whose index stops at its `cap`-th match, each read by a new isolate (every hint
 * forgotten, as a new isolate starts): straight past the frontier by cursor and by number, and
 * across it by cursor and by number, three pages each. Every page full (20, or all that is left),
 * ≤ 2 round trips, ≤ 200 rows, one KV read and no KV write; each reader's echos the matches in order.
 */
export async function coldReaders(p: { me: string; scrollId: string; rule: FeedRule; expected: Match[]; label: string; cap: number }) {
  const { me, scrollId, rule, expected, label, cap } = p;
  const readers = [
    { how: "past the frontier, by cursor", skip: cap + 37, number: (_: number) => 1 },
    // the 6th page by number: page-bookmarks hands over the cursor page 5 ended on
    { how: "past the frontier, by number", skip: cap + 10, number: (n: number) => 5 + n },
    { how: "crossing the frontier, by cursor", skip: cap - 7, number: (_: number) => 1 },
    { how: "crossing the frontier, by number", skip: cap - 13, number: (n: number) => 4 + n },
  ];
  let maxRows = 0;
  let pages = 0;
  for (const reader of readers) {
    let cursor: string | undefined = cursorAt(rule, expected[reader.skip - 1]!);
    const seen: string[] = [];
    for (let n = 1; n <= 3 && cursor; n++) {
      forgetAllHints();
      const { env: cold, kv } = countedEnv();
      const { got, stats } = await measured(cold, me, scrollId, reader.number(n), cursor);
      const at = `${label}, ${reader.how}, page ${n}`;
      expect(stats.roundTrips, at).toBeLessThanOrEqual(2);
      expect(stats.rowsRead, at).toBeLessThanOrEqual(200);
      expect(got.echos.length, at).toBe(Math.min(20, expected.length - reader.skip - seen.length));
      expect(kv, at).toEqual({ reads: 1, writes: 0 });
      seen.push(...got.echos.map((e) => e._id));
      maxRows = Math.max(maxRows, stats.rowsRead);
      pages++;
      cursor = got.pagination.nextCursor ?? undefined;
    }
    expect(seen, `${label}, ${reader.how}`).toEqual(expected.slice(reader.skip, reader.skip + seen.length).map((e) => e.id));
  }
  return { maxRows, pages };
}
