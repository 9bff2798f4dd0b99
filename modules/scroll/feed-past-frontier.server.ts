// A feed page past its index's frontier, full (issue 27, decision 020 "Past the frontier, full").
// An index keeps its rule's first INDEX_CAP matches and reaches deeper when a reader nears its
// frontier (feed-index-extend.server.ts); until that extension lands — a reader faster than the
// consumer, a cursor handed over from another client, a jump past the frontier — the page is the
// engine's. The engine's one-statement page numbers its window (2 rows an entry) and, past 5
// streams, merges in two levels (1 more): a window of 16 entries for 10 tags, short whenever an
// echo carries two of them. Here the page takes the two round trips the budget allows: the first
// (with the index's state, and the scroll's lookup) reads the next entries of the merged streams,
// ids only, 1 or 2 rows an entry (feedScanQuery), so the window holds about twice the entries; the
// second hydrates the chosen echos by id. Its end is exact: the scan's last entry.
import { DEFAULT_LIMIT, ECHO_ROWS, encodeCursor, knownSoFar } from "../shared/index";
import { batch, type AppContext } from "../shared/index.server";
import { type PageRequest } from "../echo/index.server";
import { echoPage } from "./rows.server";
import { feedPage, feedScanQuery, FRONTIER_N, holdsRule, hydrateIds, scanEntryRows, streams, type FeedPageRow, type FeedScanRow, type Seek } from "./feed-rules.server";
import { before, positionOf, reachOf, rememberIndex, type Position } from "./feed-index.server";
import { askToExtend } from "./feed-index-extend.server";
import { indexState } from "./feed-index-pages.server";
import { ruleKeyOf } from "./rule.server";
import type { FeedRule, ScrollEchoPage } from "./schema";

/** Candidates hydrated beyond the page: echos a muted word or moderation may hide (1 row each). */
const SPARE = 3;

/**
 * Entries the scan reads for a page of `limit` echos given `candidateRows` (the engine page's
 * rows for candidates, its look-ahead echo's rows not among them): the look-ahead echo is not
 * hydrated here (the scan's end is exact), and SPARE hidden candidates may be.
 */
export function scanEntries(rule: FeedRule, candidateRows: number): number {
  return Math.max(1, Math.floor((candidateRows + ECHO_ROWS - SPARE - streams(rule).length) / scanEntryRows(rule)));
}

export type ScannedPage = { rows: FeedPageRow[]; hasMore: boolean; after: Position | null };

/**
 * The page of a scan's rows (read in the first round trip, feedScanQuery): the chosen echos
 * hydrated in the second — unless the scan chose none (a guard that failed reads nothing) — and
 * where the next page starts.
 */
export async function pageOfScan(app: Pick<AppContext, "db">, rule: FeedRule, viewerId: string, scanned: FeedScanRow[], entries: number, limit: number, now: number): Promise<ScannedPage> {
  const rank = (r: { likesCount: number }) => (rule.sortBy === "mostLiked" ? r.likesCount : 0);
  // the scan's last entry is its frontier when it read all it could (more may follow)
  const marked = scanned.map((r, i) => ({ ...r, feedN: scanned.length === entries && i === scanned.length - 1 ? FRONTIER_N : 0 }));
  const fed = feedPage(rule, marked, limit + SPARE, now);
  const end = (): Position | null => (fed.hasMore && fed.after ? { rank: rank(fed.after), id: fed.after.id } : null);
  if (fed.rows.length === 0) return { rows: [], hasMore: end() !== null, after: end() };
  const [hydrated] = await batch(app.db, [hydrateIds(viewerId, fed.rows.map((r) => r.id), limit)]);
  const order = new Map(fed.rows.map((r, i) => [r.id, i] as const));
  const shown = [...hydrated].sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  if (shown.length === limit) {
    // a full page: the next starts after its last echo (at its rank in the scan)
    const last = fed.rows[order.get(shown[limit - 1]!.id)!]!;
    const at = { rank: rank(last), id: last.id };
    const more = fed.rows.some((r) => before(rule, at, { rank: rank(r), id: r.id })) || fed.hasMore;
    return { rows: shown, hasMore: more, after: more ? at : null };
  }
  // every candidate was considered (some hidden): the page ends where the scan's choice ended
  return { rows: shown, hasMore: fed.hasMore, after: end() };
}

/** The cursor of the page after a position of the index (a page's last entry, or its frontier). */
export const indexCursor = (rule: FeedRule, at: Position): string => encodeCursor(rule.sortBy === "mostLiked" ? { l: at.rank, id: at.id } : { id: at.id });

/**
 * A page past a ready index's frontier in two round trips: the index's state and the scan (in the
 * batch of the scroll's lookup, guarded to the scroll still holding `rule`), then the chosen
 * echos. `candidateRows`: the engine page's rows for candidates (pageCandidateRows); a reader who
 * hides what they liked gets a screen's more (their echos' like probes find nothing).
 */
export async function scannedPage(
  app: AppContext,
  viewerId: string,
  rule: FeedRule,
  req: PageRequest,
  seek: Seek,
  now: number,
  candidateRows: number,
  whileScroll: string,
): Promise<ScrollEchoPage> {
  const ruleKey = ruleKeyOf(rule);
  const entries = scanEntries(rule, candidateRows + (rule.excludeLikedEchos ? DEFAULT_LIMIT : 0));
  const [state, scanned] = await batch(app.db, [indexState(ruleKey), feedScanQuery(rule, viewerId, now, seek, entries, holdsRule(whileScroll, viewerId, rule))]);
  if (state[0]?.state === "ready") {
    rememberIndex(ruleKey, reachOf(state[0]));
    // the extension the reader needs (decision 020, "Deeper on demand")
    askToExtend(app, rule, ruleKey, reachOf(state[0]), positionOf(rule, seek));
  }
  const got = await pageOfScan(app, rule, viewerId, scanned, entries, req.limit, now);
  const nextCursor = got.after ? indexCursor(rule, got.after) : null;
  const total = knownSoFar(req.page, req.limit, got.rows.length, got.hasMore);
  return { ...echoPage(got.rows, req, total, got.hasMore, nextCursor), feedIndex: state[0]?.state ?? "building" };
}
