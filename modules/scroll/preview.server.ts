// POST /api/scroll/preview: a rule's first page and how many echos match, before it is saved
// (docs/decisions/012-preview-why-fork.md). Reads only, in one D1 round trip, within the budget
// of a feed page: the page's window, the counters and a bounded count scan.
import { badRequest, knownSoFar, pagination } from "../shared/index";
import { accountLimit, batch, listCursor, lit, returning, select, sql, tables, viewerFiltersText, type AppContext } from "../shared/index.server";
import { toEcho, type PageRequest } from "../echo/index.server";
import { COUNT_SCAN_ROWS, counterQuery, countScanQuery, emptyScanQuery, matchCount, scanEntries, type MatchCount } from "./feed-count.server";
import { feedPage, feedPageQuery, provablyEmpty, windowSize } from "./feed-rules.server";
import { ruleOfConfig } from "./rule.server";
import { feedCursor, feedSeek } from "./pages.server";
import type { FeedConfigInput, FeedRule, ScrollEchoPage } from "./schema";

/** A preview shows 10 echos: a glance, not the feed, and fewer rows to hydrate leave room for
 * the count in the 200-row budget. */
export const PREVIEW_LIMIT = 10;
/** Candidate rows for the page's window (a feed page has 110; the count scan has the rest). */
export const PREVIEW_CANDIDATE_ROWS = 70;

/**
 * The preview of a rule as create takes it (POST /api/scroll/preview), under the account's
 * preview limit: the counter rides in the preview's own batch (a refused preview is a 429).
 */
export async function previewFeedConfig(app: AppContext, viewerId: string, config: FeedConfigInput | null | undefined, req: PageRequest) {
  return previewFeed(app, viewerId, ruleOfConfig(config), req, Date.now(), undefined, accountLimit("preview", viewerId));
}

/** A rule's preview page and match count; `rows` sizes the page's window and the count scan
 * (the property test makes them tiny, so that bounds and short pages happen). */
export async function previewFeed(
  app: AppContext,
  viewerId: string,
  rule: FeedRule,
  req: PageRequest,
  now = Date.now(),
  rows = { candidates: PREVIEW_CANDIDATE_ROWS, count: COUNT_SCAN_ROWS },
  limited?: ReturnType<typeof accountLimit>,
): Promise<ScrollEchoPage & MatchCount> {
  const limit = Math.min(req.limit, PREVIEW_LIMIT);
  const key = listCursor(req);
  const window = windowSize(rule, rows.candidates);
  const entries = scanEntries(rule, rows.count);
  const empty = provablyEmpty(rule, now);
  const [counted, counters, pageRows, scan, hiding] = await batch(app.db, [
    // the account's counter, bumped and read back in the same round trip (no counter: a no-op read)
    limited ? returning(limited.upsert, { count: tables.rateLimits.count }) : select({ count: sql<number>`0` }, sql``),
    counterQuery(rule),
    feedPageQuery(rule, viewerId, now, feedSeek(key), limit, 0, window),
    // a provably empty rule has no streams to scan
    empty ? emptyScanQuery() : countScanQuery(rule, viewerId, now, entries),
    // whether anything may hide an echo from the viewer (decision 026; moderated accounts and
    // muted words, issue 32): then the counters, which count every author's echos, only bound
    // the count from above (the page and the scan leave them out)
    select({ hides: sql<number>`${sql.raw(viewerFiltersText(lit(viewerId)))}` }, sql``),
  ]);
  const tooMany = limited?.exceeded(counted[0]?.count);
  if (tooMany) throw tooMany;
  if ((counters[0]?.authorsFound ?? 0) !== rule.authors.length) throw badRequest("One of the chosen authors no longer exists");
  const page = feedPage(rule, pageRows, limit);
  const nextCursor = page.hasMore && page.after ? feedCursor(rule, page.after) : null;
  const count = matchCount(rule, now, {
    counters: counters[0] && hiding[0]?.hides ? { ...counters[0], exact: 0, lower: 0 } : counters[0],
    scan: scan[0],
    scanEntries: entries,
    pageMatches: key ? 0 : page.rows.length,
    pageComplete: !key && !page.hasMore,
  });
  // pages after the first come by cursor only (the count is the preview's total)
  const pageNumber = key ? req.page : 1;
  const total = knownSoFar(pageNumber, limit, page.rows.length, page.hasMore);
  return {
    echos: page.rows.map(toEcho),
    pagination: { ...pagination(pageNumber, limit, total, page.hasMore), nextCursor },
    ...count,
  };
}
