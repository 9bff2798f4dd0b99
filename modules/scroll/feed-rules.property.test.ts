// Property test: the SQL feed engine (real D1 in workerd) and the in-memory reference agree on
// every random rule over random data: same echos, same order, and cursor pages that partition it.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newId } from "../shared/index";
import { batch, configureRequestDb, toD1, sql, testAppContext, type SQL } from "../shared/index.server";
import { CANDIDATE_ROWS, feedPage, feedPageQuery, provablyEmpty, windowSize, type Hiding } from "./feed-rules.server";
import { referenceFeed, visibleInPublicLists, type RefEcho, type RefLike, type RefModeration } from "./feed-rules.reference";
import type { FeedRule } from "./schema";
import { DAY, feedRuleArb } from "../../tests/feed-rule-arbitrary";
import { MATCH_COUNT_CAP } from "./feed-count.server";
import { previewFeed } from "./preview.server";
import { echoFactsQuery, explainFeedEcho } from "./why.server";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
// Unicode names and names inside other names: the engine tests tags inside the echo's JSON row
const VOCAB = ["tech", "life", "art", "food", "news", "ai", "music", "travel", "café", "日本", "tech-news", "a_i"];
const USERS = ["alice", "bob", "carol", "dan"];
const DATASETS = 4;
const RULES_PER_DATASET = 260;

type Dataset = { users: string[]; echos: RefEcho[]; likes: RefLike[] };

const datasetArb = fc
  .record({
    echos: fc.array(
      fc.record({
        author: fc.integer({ min: 0, max: USERS.length - 1 }),
        tags: fc.uniqueArray(fc.constantFrom(...VOCAB), { maxLength: 5 }),
        // spread over two years, with clusters inside the last day/month for the time windows
        age: fc.oneof(fc.integer({ min: 0, max: 2 * 365 * DAY }), fc.integer({ min: 0, max: 2 * DAY })),
        // about one in four is a reply (decision 024: a feed shows replies only when its rule says so)
        reply: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
      }),
      { minLength: 0, maxLength: 60 },
    ),
    likes: fc.array(fc.tuple(fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: USERS.length - 1 })), { maxLength: 120 }),
  })
  .map(({ echos, likes }): Dataset => {
    const users = USERS.map((_, i) => newId(NOW - 10 * 365 * DAY + i));
    const refEchos = echos.map((e, i) => {
      const createdAt = NOW - e.age;
      // a fixed random suffix per index keeps ids unique even for equal timestamps
      const id = newId(createdAt).slice(0, 10) + i.toString(32).padStart(16, "0");
      // a reply's parent: any id (no foreign key); the engine only asks whether there is one
      return { id, authorId: users[e.author]!, tags: e.tags, createdAt, likes: 0, parentId: e.reply ? users[0]! : null };
    });
    const seen = new Set<string>();
    const refLikes: RefLike[] = [];
    for (const [ei, ui] of likes) {
      const echo = refEchos[ei % Math.max(1, refEchos.length)];
      if (!echo) continue;
      const key = `${echo.id}|${ui}`;
      if (seen.has(key)) continue;
      seen.add(key);
      refLikes.push({ echoId: echo.id, userId: users[ui]! });
      echo.likes++;
    }
    return { users, echos: refEchos, likes: refLikes };
  });

const ruleArb = (users: string[]) =>
  fc
    .tuple(
      feedRuleArb({ vocab: VOCAB, users, nobody: newId(1), now: NOW }),
      fc.integer({ min: 1, max: 7 }),
      // small windows, so that pages often stop at the frontier (short, even empty); sometimes
      // one the page never reaches
      fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 1, arbitrary: fc.constant(1000) }),
      // the preview's rows for its page and its count scan: tiny, so that counts are often bounds
      fc.record({ candidates: fc.integer({ min: 1, max: 40 }), count: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constant(1000)) }),
    )
    .map(([rule, pageSize, window, previewRows]) => ({ ...rule, pageSize, window, previewRows }));

/** Moderation over a dataset (issue 32, decision 029): its first echo hidden, the first user
 * limited, the third suspended — what a feed shows no reader but their author. */
const moderationOf = (data: Dataset): RefModeration => ({
  hiddenEchos: data.echos.slice(0, 1).map((e) => e.id),
  limited: [data.users[0]!],
  suspended: [data.users[2]!],
});

async function load(data: Dataset, moderation: RefModeration | null = null) {
  const app = testAppContext(env);
  const statements: SQL[] = [sql`DELETE FROM users`, sql`DELETE FROM moderation_set`];
  if (moderation) {
    const entries = Object.fromEntries([
      ...moderation.hiddenEchos.map((id) => [`e:${id}`, 1]),
      ...moderation.limited.map((id) => [`u:${id}`, 1]),
      ...moderation.suspended.map((id) => [`u:${id}`, 2]),
    ]);
    statements.push(sql`INSERT INTO moderation_set (id, entries) VALUES (1, ${JSON.stringify(entries)})`);
  }
  data.users.forEach((id, i) =>
    statements.push(sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES (${id}, ${"p" + i + id.slice(-4)}, 'x', 0)`),
  );
  for (const e of data.echos) {
    statements.push(
      sql`INSERT INTO echos (id, author_id, content, tags, created_at, parent_id, root_id)
          VALUES (${e.id}, ${e.authorId}, 'x', ${JSON.stringify(e.tags)}, ${e.createdAt}, ${e.parentId ?? null}, ${e.parentId ?? null})`,
    );
    for (const t of e.tags) {
      statements.push(sql`INSERT INTO tags (name, created_at) VALUES (${t}, 0) ON CONFLICT DO NOTHING`);
      // (the link carries its author, as a post writes it: migration 0035)
      statements.push(sql`INSERT INTO echo_tags (tag, echo_id, tags, reply, author_id) VALUES (${t}, ${e.id}, ${JSON.stringify(e.tags)}, ${e.parentId ? 1 : 0}, ${e.authorId})`);
    }
  }
  for (const l of data.likes) statements.push(sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${l.echoId}, ${l.userId}, 0)`);
  // issue 32: the second user does not see the third (for good) nor the fourth (a mute that has
  // not ended), and sees the first again (a mute that ended); the engine reads this row
  const [, second, third, fourth] = data.users;
  const set = { [third!]: 0, [fourth!]: 9_000_000_000_000_000, [data.users[0]!]: 1 };
  statements.push(sql`INSERT INTO hidden_authors (user_id, authors) VALUES (${second}, ${JSON.stringify(set)})`);
  await batch(app.db, statements);
}

/** The echos a viewer sees: all, but for the second user's (see load) hidden authors and what
 * moderation took out (their own excepted). */
const seenBy = (data: Dataset, viewer: string, moderation: RefModeration = { hiddenEchos: [], limited: [], suspended: [] }) =>
  visibleInPublicLists(data.echos, viewer, viewer === data.users[1] ? [data.users[2]!, data.users[3]!] : [], moderation);

/** Walk the feed the way the client does: page after page by cursor, through short and empty
 * pages while more may come. Also the most rows one page read, and whether a page was short. */
async function sqlFeed(rule: FeedRule, viewer: string, pageSize: number, window: number, hiding: Hiding = false) {
  const app = testAppContext(env);
  const ids: string[] = [];
  let seek: { id: string; likes?: number } | null = null;
  let maxRows = 0;
  let shortPages = 0;
  for (let guard = 0; guard < 500; guard++) {
    const query = feedPageQuery(rule, viewer, NOW, seek, pageSize, 0, window, null, hiding);
    const result = await toD1(app.db, query).all<Record<string, unknown>>();
    maxRows = Math.max(maxRows, result.meta.rows_read);
    const page = feedPage(rule, query.decode(result.results), pageSize, NOW);
    ids.push(...page.rows.map((e) => e.id));
    if (!page.hasMore) return { ids, maxRows, shortPages };
    if (page.rows.length < pageSize) shortPages++;
    seek = { id: page.after!.id, likes: page.after!.likesCount };
  }
  throw new Error("feed did not end");
}

/** "Why am I seeing this?" for every echo of the store, from the echo rows on D1 (`facts`, read
 * in the case's shared round trip): in the feed exactly when the engine's pages hold it, and in the
 * feed exactly when every reason passed. One comparison of every echo's answers (one expect per
 * echo and answer cost ~200,000 expects a run). */
function checkWhy(rule: FeedRule, viewer: string, data: Dataset, engineIds: string[], facts: FactRow[], moderation?: RefModeration) {
  expect(facts).toHaveLength(data.echos.length);
  const inEngine = new Set(engineIds);
  const seen = new Set(seenBy(data, viewer, moderation).map((e) => e.id));
  // an echo of an author the viewer does not see: "why" answers 404 for it (whyHere), and the
  // engine never shows it
  const answers = facts.map((f) => {
    if (f.visible !== 1) return { id: f.id, visible: false, inEngine: inEngine.has(f.id) };
    const why = explainFeedEcho(rule, f, new Map(), NOW);
    return { id: f.id, visible: true, inFeed: why.inFeed, allPassed: why.reasons.every((r) => r.passed), someReason: why.reasons.length > 0 };
  });
  const expected = facts.map((f) =>
    seen.has(f.id) ? { id: f.id, visible: true, inFeed: inEngine.has(f.id), allPassed: inEngine.has(f.id), someReason: true } : { id: f.id, visible: false, inEngine: false },
  );
  expect(answers).toEqual(expected);
}
type FactRow = Awaited<ReturnType<typeof batch<[ReturnType<typeof echoFactsQuery>]>>>[0][number];

/** The live preview of a rule (before it is saved): its first page is the feed's head, and its
 * count is the reference's when it says exact, never more than it otherwise. Whether exact. */
async function checkPreview(
  rule: FeedRule,
  viewer: string,
  pageSize: number,
  rows: { candidates: number; count: number },
  expected: string[],
  users: string[],
  app = testAppContext(env),
): Promise<boolean> {
  const run = () => previewFeed(app, viewer, rule, { page: 1, limit: pageSize }, NOW, rows);
  if (!rule.authors.every((a) => users.includes(a))) {
    await expect(run()).rejects.toThrow("One of the chosen authors no longer exists");
    return false;
  }
  const preview = await run();
  const ids = preview.echos.map((e) => e._id);
  expect(ids).toEqual(expected.slice(0, ids.length));
  if (!preview.pagination.hasMore) expect(ids).toEqual(expected);
  if (preview.matchCountExact) expect(preview.matchCount).toBe(expected.length);
  else expect(preview.matchCount).toBeLessThanOrEqual(Math.min(expected.length, MATCH_COUNT_CAP));
  return preview.matchCountExact;
}

describe("feed rules engine = reference implementation = why-here", () => {
  it(`agrees on ${DATASETS * RULES_PER_DATASET} random rules over ${DATASETS} random datasets`, async () => {
    let cases = 0;
    let largest = 0;
    let shortPages = 0;
    const counts = { all: 0, exact: 0, nonEmpty: 0 };
    const maxByWindow: number[] = [];
    const datasets = fc.sample(datasetArb, { numRuns: DATASETS, seed: 20261122 });
    for (const [i, data] of datasets.entries()) {
      // every other dataset with moderation (issue 32): an echo hidden, an account limited, one suspended
      const moderation = i % 2 === 1 ? moderationOf(data) : undefined;
      await load(data, moderation);
      await fc.assert(
        fc.asyncProperty(ruleArb(data.users), async ({ viewer, pageSize, window, previewRows, ...rule }) => {
          cases++;
          largest = Math.max(largest, rule.includedTags.length + rule.excludedTags.length + rule.authors.length);
          // the reference over the echos the viewer sees (issue 32: hidden authors leave every list)
          const expected = referenceFeed(rule, seenBy(data, viewer, moderation), data.likes, viewer, NOW);
          // the preview refuses an author who does not exist (as create does); without them, the rule
          const known = { ...rule, authors: rule.authors.filter((a) => data.users.includes(a)) };
          const knownExpected = known.authors.length === rule.authors.length ? expected : referenceFeed(known, seenBy(data, viewer, moderation), data.likes, viewer, NOW);
          // the engine's walk, and beside it in one shared round trip the echos' facts for
          // why-here and the previews (each its own batch, as a request sends it): their reads
          // do not depend on each other (one round trip a case, not four)
          const shared = testAppContext(env);
          configureRequestDb(shared.db, { coalesce: true });
          const [got, [facts], unknownPreview, exact] = await Promise.all([
            // the path for a viewer believed to hide anyone (pages.server.ts: a hint read in an
            // earlier batch) — for the viewer with a set every other case, and for one without
            // (a stale hint: the scan must be right for any viewer); the window's path for the rest
            // — and, every fourth case of the viewer with a set, the engine's page read only if they
            // hide an author the rule names (beside an index's page, pages.server.ts): the feed, or nothing
            sqlFeed(rule, viewer, pageSize, window, viewer === data.users[1] && cases % 4 === 1 ? "if-named-hidden" : (viewer === data.users[1] && cases % 2 === 0) || viewer === data.users[3]),
            batch(shared.db, [echoFactsQuery(viewer, newId(NOW), data.echos.map((e) => e.id))]),
            known.authors.length !== rule.authors.length ? checkPreview(rule, viewer, pageSize, previewRows, expected, data.users, shared) : null,
            checkPreview(known, viewer, pageSize, previewRows, knownExpected, data.users, shared),
          ]);
          void unknownPreview;
          const unread = viewer === data.users[1] && cases % 4 === 1 && !rule.authors.some((a) => a === data.users[2] || a === data.users[3]);
          expect(got.ids).toEqual(unread ? [] : expected);
          // why-here and the preview honour hidden authors too (issue 32): checked for the viewer
          // with a set as for the others (against the reference where the walk read nothing by design)
          checkWhy(rule, viewer, data, unread ? expected : got.ids, facts, moderation);
          counts.exact += Number(exact);
          counts.nonEmpty += Number(knownExpected.length > 0);
          counts.all++;
          shortPages += got.shortPages;
          if (window < 1000) maxByWindow[window] = Math.max(maxByWindow[window] ?? 0, got.maxRows);
        }),
        { numRuns: RULES_PER_DATASET, seed: 7 + i },
      );
    }
    console.warn(
      `feed property test: ${cases} cases, 0 mismatches, largest rule ${largest} tags+authors, ${shortPages} short pages; ` +
        `most rows read by a page per window ${JSON.stringify(maxByWindow)}; preview counts exact ${counts.exact}/${counts.all} (${counts.nonEmpty} rules match something)`,
    );
    expect(cases).toBe(DATASETS * RULES_PER_DATASET);
    // ~44 CPU-s (measured 2026-12-07, vitest's own start-up aside): the wait is the machine's
    // load — 189 s at load ~11, 366 s at load ~20 before the shared round trip — so the limit
    // leaves room for load ~28 (issue 28's CI beside helpers), not for more work
  }, 600_000);
});

// The random rules above mostly match nothing on 60 echos; these denser ones (few tags, one
// exclusion at most, no dates) match many, so that the preview's count is often a bound.
describe("the preview's match count = the reference's count when exact, a lower bound otherwise", () => {
  it("on 300 dense random rules", async () => {
    const datasets = fc.sample(datasetArb, { numRuns: 2, seed: 16 });
    const tally = { exact: 0, bound: 0 };
    const smallRows = fc.record({ candidates: fc.integer({ min: 1, max: 20 }), count: fc.integer({ min: 1, max: 15 }) });
    for (const [i, data] of datasets.entries()) {
      await load(data);
      const dense = fc.record({
        tagMatchType: fc.constantFrom("all" as const, "any" as const),
        includedTags: fc.uniqueArray(fc.constantFrom(...VOCAB.slice(0, 4)), { maxLength: 3 }),
        excludedTags: fc.uniqueArray(fc.constantFrom(...VOCAB.slice(3, 6)), { maxLength: 1 }),
        authors: fc.uniqueArray(fc.constantFrom(...data.users), { maxLength: 2 }),
        sortBy: fc.constantFrom("newestFirst" as const, "oldestFirst" as const, "mostLiked" as const),
        sortTimeRange: fc.constantFrom("1year" as const, "allTime" as const),
        excludeLikedEchos: fc.boolean(),
        startDate: fc.constant(null),
        endDate: fc.constant(null),
      });
      await fc.assert(
        // every viewer, the one who hides authors too (issue 32: the counters count them, so for
        // that viewer they only bound the count)
        fc.asyncProperty(dense, fc.constantFrom(...data.users), fc.integer({ min: 1, max: 10 }), smallRows, async (rule, viewer, pageSize, previewRows) => {
          const expected = referenceFeed(rule, seenBy(data, viewer), data.likes, viewer, NOW);
          const exact = await checkPreview(rule, viewer, pageSize, previewRows, expected, data.users);
          tally[exact ? "exact" : "bound"]++;
        }),
        { numRuns: 150, seed: 31 + i },
      );
    }
    console.warn(`preview counts on dense rules: ${tally.exact} exact, ${tally.bound} lower bounds`);
    expect(tally.bound).toBeGreaterThan(20);
  }, 120_000);
});

describe("a page reads at most its window of index entries, whatever the rule", () => {
  /** Hydrating the frontier entry: its echo, author and is-liked. */
  const FRONTIER_ROWS = 5;
  // 300 echos that every rule below passes over: each carries the excluded tag, is liked by the
  // viewer (hide-liked), or lies outside the window; the few that match lie in the middle by
  // date and have the fewest likes
  const users = USERS.map((_, i) => newId(NOW - 10 * 365 * DAY + i));
  const echos: RefEcho[] = Array.from({ length: 303 }, (_, i) => {
    const createdAt = NOW - 400 * DAY + i * DAY;
    const matches = i >= 150 && i < 153;
    const tags = matches ? ["tech", "art"] : ["tech", "art", "news"];
    return { id: newId(createdAt).slice(0, 10) + String(i).padStart(16, "0"), authorId: users[i % 2]!, tags, createdAt, likes: matches ? 0 : 1 + (i % 7) };
  });
  const likes: RefLike[] = echos.filter((e) => e.likes > 0).map((e) => ({ echoId: e.id, userId: users[2]! }));
  // the same store where the echos passed over are replies, not tagged #news (decision 024)
  const replies: RefEcho[] = echos.map((e) => (e.tags.includes("news") ? { ...e, tags: ["tech", "art"], parentId: echos[151]!.id } : e));
  const base: FeedRule = { tagMatchType: "any", includedTags: [], excludedTags: [], authors: [], sortBy: "newestFirst", sortTimeRange: "allTime", excludeLikedEchos: false, startDate: null, endDate: null };
  const shapes: [string, Partial<FeedRule>][] = [
    ["one tag, an exclusion", { includedTags: ["tech"], excludedTags: ["news"] }],
    ["25 tags (5 merge groups), an exclusion", { includedTags: ["tech", "art", ...VOCAB.slice(2), ...Array.from({ length: 13 }, (_, i) => `n${i}`)], excludedTags: ["news"] }],
    ["no tag rule, an exclusion, oldest first", { excludedTags: ["news"], sortBy: "oldestFirst" }],
    ["most liked this month", { includedTags: ["tech"], sortBy: "mostLiked", sortTimeRange: "1month", excludedTags: ["news"] }],
    ["two authors, hide-liked", { authors: users.slice(0, 2), excludeLikedEchos: true }],
    ["all of two tags, an exclusion, most liked", { includedTags: ["tech", "art"], tagMatchType: "all", excludedTags: ["news"], sortBy: "mostLiked" }],
    ["replies off: two authors, most liked", { authors: users.slice(0, 2), sortBy: "mostLiked", sortTimeRange: "1year" }],
  ];
  it.each(shapes)("%s", async (name, shape) => {
    const store = name.startsWith("replies off") ? replies : echos;
    await load({ users, echos: store, likes });
    const rule = { ...base, ...shape };
    const app = testAppContext(env);
    const expected = referenceFeed(rule, store, likes, users[2]!, NOW);
    // (and for a viewer believed to hide anyone: the scan, sized from the same window)
    for (const [candidateRows, hiding] of [30, CANDIDATE_ROWS].flatMap((r) => [[r, false], [r, true]] as const)) {
      const window = windowSize(rule, candidateRows);
      const query = feedPageQuery(rule, users[2]!, NOW, null, 20, 0, window, null, hiding);
      const result = await toD1(app.db, query).all<Record<string, unknown>>();
      const page = feedPage(rule, query.decode(result.results), 20);
      // the window is full before any match: an empty page that says more may come
      expect(page.rows).toEqual([]);
      expect(page.hasMore).toBe(true);
      // the window's entries and the frontier's hydration, and a row of the check whether anything
      // may hide an echo from the viewer (issue 32); never the 300 entries passed over
      expect(result.meta.rows_read).toBeLessThanOrEqual(candidateRows + FRONTIER_ROWS + 1);
    }
    const unbounded = await toD1(app.db, feedPageQuery(rule, users[2]!, NOW, null, 20, 0, 1000)).all();
    expect(unbounded.meta.rows_read).toBeGreaterThan(300);
    const all = await sqlFeed(rule, users[2]!, 20, windowSize(rule));
    expect(all.ids).toEqual(expected);
    // the scan's walk too (25 streams: their window cannot hold the scan, whose path is then the one above)
    if (!name.startsWith("25 tags")) expect((await sqlFeed(rule, users[2]!, 20, windowSize(rule), true)).ids).toEqual(expected);
  });
  it("a tag feed without replies walks the tag's top-level echos only: 300 replies cost no read", async () => {
    await load({ users, echos: replies, likes });
    const rule: FeedRule = { ...base, includedTags: ["tech"] };
    const app = testAppContext(env);
    const query = feedPageQuery(rule, users[0]!, NOW, null, 20, 0, windowSize(rule));
    const result = await toD1(app.db, query).all<Record<string, unknown>>();
    const page = feedPage(rule, query.decode(result.results), 20);
    expect(page.rows.map((r) => r.id)).toEqual(referenceFeed(rule, replies, likes, users[0]!, NOW));
    expect(page.rows).toHaveLength(3);
    expect(result.meta.rows_read).toBeLessThanOrEqual(20);
  });
});

describe("a rule that can match nothing is answered without reading", () => {
  const base: FeedRule = { tagMatchType: "any", includedTags: ["tech"], excludedTags: [], authors: [], sortBy: "newestFirst", sortTimeRange: "allTime", excludeLikedEchos: false, startDate: null, endDate: null };
  const viewer = newId(NOW - DAY);
  it.each<[string, Partial<FeedRule>]>([
    ["a date range before the time window", { sortBy: "mostLiked", sortTimeRange: "1month", startDate: NOW - 90 * DAY, endDate: NOW - 60 * DAY }],
    ["a start after the end", { startDate: NOW - DAY, endDate: NOW - 2 * DAY }],
    ["a start in the future", { startDate: NOW + DAY }],
    ["any-of, every included tag excluded", { includedTags: ["tech", "art"], excludedTags: ["art", "tech", "x"] }],
    ["all-of, one included tag excluded", { tagMatchType: "all", includedTags: ["tech", "art"], excludedTags: ["art"] }],
  ])("%s", async (_name, shape) => {
    const rule = { ...base, ...shape };
    expect(provablyEmpty(rule, NOW)).toBe(true);
    expect(referenceFeed(rule, [{ id: newId(NOW - 3 * DAY), authorId: viewer, tags: ["tech", "art"], createdAt: NOW - 3 * DAY, likes: 0 }], [], viewer, NOW)).toEqual([]);
    const result = await toD1(testAppContext(env).db, feedPageQuery(rule, viewer, NOW, null, 20, 0)).all();
    expect(result.results).toEqual([]);
    expect(result.meta.rows_read).toBe(0);
  });

  it("is not claimed of a rule that can match", () => {
    expect(provablyEmpty({ ...base, includedTags: ["tech", "art"], excludedTags: ["art"] }, NOW)).toBe(false);
    expect(provablyEmpty({ ...base, startDate: NOW - 2 * DAY, endDate: NOW - DAY }, NOW)).toBe(false);
    expect(provablyEmpty({ ...base, sortBy: "mostLiked", sortTimeRange: "1day", startDate: NOW - 2 * DAY }, NOW)).toBe(false);
  });
});
