// A second round trip that fills a short page (issues 32 and 27, docs/decisions/034-filling-round-trip.md).
// A feed page is one statement sized for the worst case — every echo it shows at ECHO_ROWS, so a
// hider's walk reads 58 entries a screen (decision 026, "The exact bound") — and at 70 % hidden
// those hold ~18 echos. After the statement the page knows what it cost: D1 says how many rows
// each call read (requestSpent, the request's own count). Where the page came out short with
// more to come, and the request has used one round trip, a second statement continues the same
// walk from where the first stopped — sized by the rows actually left, less its own lookups and
// its echos at the worst case — and its echos are appended: the same order, none twice, the
// cursor after the last shown. A reader whose page is full (everyone who hides nothing) sends
// nothing more; a page whose first round trip was the scroll's lookup has no trip left.
import { ECHO_ROWS, PAGE_FIXED_ROWS } from "../shared/index";
import { batch, rowsLeftAfterOneTrip, sql, type AppContext } from "../shared/index.server";
import { FEED_STEP, feedPage, feedPageQuery, probedEntryRows, probedScan, streams, windowSize, type FeedPageRow, type Hiding, type Seek } from "./feed-rules.server";
import { entriesForFewReposts, firstWalkForFewReposts, repostsKept, filteredScan, HIDE_LIKED_SCAN, indexPage, indexPageQuery, LAST_ROW, type IndexRow } from "./feed-index-pages.server";
import { windowMs, type IndexReach, type Position } from "./feed-index.server";
import type { FeedRule } from "./schema";

type App = Pick<AppContext, "db" | "env">;

/**
 * How a filling statement spends `rows`: at most `shown` echos (each, and the engine's look-ahead
 * — `ahead` — at ECHO_ROWS) over `entries` entries (`perEntry` rows each), besides `fixed` rows of its own. Of
 * the splits, the one that expects the most echos at the first statement's rate (echos an entry):
 * a page 17 of 20 asks for 3 over as many entries as fit; one at 2 of 20 takes fewer echos and
 * more entries. null when no echo and entry fit.
 */
export function fillSize(
  rows: number,
  want: number,
  rate: number,
  perEntry: number,
  fixed: number,
  ahead: 0 | 1,
  cost: FillCost = PLAIN_COST,
): { shown: number; entries: number } | null {
  let best: { shown: number; entries: number } | null = null;
  let expected = 0;
  for (let shown = want; shown >= 1; shown--) {
    const entries = Math.floor((rows - fixed - cost.kept(shown) - cost.echoRows * (shown + ahead)) / perEntry);
    if (entries < 1) continue;
    const value = Math.min(shown, rate * (entries + cost.more(shown)));
    if (value > expected) {
      best = { shown, entries };
      expected = value;
    }
  }
  return best;
}

/**
 * What a filling statement's echos cost at the worst (`echoRows` each; `kept(shown)` rows more
 * for the statement, planned), and the entries its SQL may add where the worst cannot come
 * (`more(shown)`, expected: only the split between echos and entries is chosen by it).
 */
type FillCost = { echoRows: number; kept: (shown: number) => number; more: (shown: number) => number };

/** Echos at ECHO_ROWS each, nothing more (a fill whose reader nothing hides). */
const PLAIN_COST: FillCost = { echoRows: ECHO_ROWS, kept: () => 0, more: () => 0 };

/**
 * An index fill's echos (decision 034, "Echos at what they can cost"): each its echo, author, the
 * reader's like and repost probes and a quoted echo (ECHO_ROWS), less the like probe for a
 * hide-liked run (it shows no echo the reader liked: the probe finds no row); the repost probes
 * kept with the count of the reader's reposts (repostsKept), which a reader with few buys
 * entries with, in SQL (expected here: a reader with none).
 */
const indexFillCost = (hideLiked: boolean, perEntry: number): FillCost => ({
  echoRows: hideLiked ? ECHO_ROWS - 1 : ECHO_ROWS,
  kept: (shown) => repostsKept(shown) - shown,
  more: (shown) => entriesForFewReposts(shown, 0, perEntry),
});

/**
 * Rows a filling index statement reads besides its entries and echos: the index's row (for the
 * walk, its frontier and its last entry), the viewer's hidden set, words and moderation rows, its
 * frontier (the entry after the cursor) and the last entry it could reach, each hydrated as its
 * echo and author only (2 rows: no probe of a row the page never shows, pageColumns) — measured
 * 15 rows for a fill that walked one entry and showed none, 20 with those two read at ECHO_ROWS,
 * so 14 at their worst now; 17 kept, as a fill of the worst case — every echo a quote the reader
 * liked and reposted — measured 2 rows over its plan with 14 (feed-fill-cost.test: 57 read of 59
 * left with 2 echos shown of 3 planned, 200 in all) — and the echos a word or moderation hides among
 * those handed to the hydration (3, 1 row each). No scroll guard: the first statement's, in the
 * request's first round trip, found the scroll holding the rule (it read the page's first rows).
 */
const INDEX_FILL_FIXED = 17 + 3;
/** The same for a reader whom nothing hides, as before decision 034's "Echos at what they can cost" (their pages unchanged). */
const PLAIN_FILL_FIXED = 20 + 3;

type IndexPage = ReturnType<typeof indexPage>;

/**
 * Rows a filling statement's last entry reads at the least (its index row, one entry, its echo
 * and author: 4), which a fill that knows it does not read.
 */
const ENDS_READ = 4;

/**
 * A fill that reads no last entry of its own (`end`, the last its walk can reach, which the page's
 * first statement read): its rows with that entry added, read as indexPage reads a fill's — the
 * page goes on after its last echo or its frontier (the entry after the cursor), whichever is later,
 * while that is before `end` (so a fill whose frontier is `end` says there is nothing more).
 */
function bareFill(rule: FeedRule, rows: IndexRow[], take: number, end: Position, st: IndexReach): IndexPage {
  const last = { ...rows[0]!, id: end.id, indexRank: end.rank, feedOk: 0, feedN: LAST_ROW };
  return indexPage(rule, rows.length > 0 ? [...rows, last] : rows, take, st);
}

/**
 * An index page (`got`, from the page's first statement: the rule's index or the reader's viewer
 * index, `readKey`) filled by a second statement where it came out short with more to come: the
 * walk (a hider's) or the run (a hide-liked reader's) continued after `got.after`. Unchanged
 * where there is no round trip or no row left.
 */
export async function fillIndexPage(
  app: App,
  rule: FeedRule,
  viewerId: string,
  got: IndexPage,
  take: number,
  st: IndexReach,
  readKey: string,
  now: number,
  filters: boolean,
): Promise<IndexPage> {
  const want = take - got.rows.length;
  if (want <= 0 || got.after === null || got.atFrontier) return got;
  const rows = rowsLeftAfterOneTrip(app, "FEED_FILL");
  if (rows === null) return got;
  // the first statement's walk (entries read at most) sets the rate; a hide-liked run's entry
  // costs 2 rows (its like probe), a walk's 1
  // (a hiding reader's walk takes more where they repost little: expected of one who reposts nothing)
  const scanned = rule.excludeLikedEchos ? HIDE_LIKED_SCAN : filteredScan(take).entries + (filters && windowMs(rule) === null ? firstWalkForFewReposts(take) : 0);
  const perEntry = rule.excludeLikedEchos ? 2 : 1;
  // (a hiding reader's fill counts its echos at what they can cost; one whom nothing hides — a
  // windowed rule's aged entries, a hide-liked run — fills as before)
  // (one that knows the last entry the walk can reach does not read it: bareFill)
  const bare = got.end !== undefined;
  const fixed = (filters ? INDEX_FILL_FIXED : PLAIN_FILL_FIXED) - (bare ? ENDS_READ : 0);
  const cost = filters ? indexFillCost(rule.excludeLikedEchos, perEntry) : PLAIN_COST;
  const size = fillSize(rows, want, (got.rows.length + 1) / (scanned + 1), perEntry, fixed, 0, cost);
  if (!size) return got;
  const seek: Seek = { id: got.after.id, likes: got.after.rank };
  const [more] = await batch(app.db, [indexPageQuery(rule, viewerId, seek, size.shown, sql`1`, now, null, readKey, { entries: size.entries, step: 1, filters, fewReposts: filters, bare })]);
  const next = bare ? bareFill(rule, more, size.shown, got.end!, st) : indexPage(rule, more, size.shown, st);
  // (at the index's frontier, `next.after` is the frontier: the next page is the engine's)
  return { rows: [...got.rows, ...next.rows], full: got.rows.length + next.rows.length >= take, after: next.after, atFrontier: false };
}

/** The fewest candidate rows a filling engine statement is sent with: a numbered window of 12
 * entries at ~3 rows each; a hider's scan, whose frontier is its first entry, 4 entries at that. */
const ENGINE_FILL_MIN = 3 * FEED_STEP;
const SCAN_FILL_MIN = 12;
/** A filling scan's frontier: the entry after its cursor (1 entry's rows, where FEED_STEP's cost 12). */
const FILL_STEP = 1;

type EngineFed = { rows: FeedPageRow[]; hasMore: boolean; after: FeedPageRow | null };

/**
 * An engine page (`fed`, its window of `window` entries read in the request's first round trip)
 * filled by a second statement where it stopped at its window's frontier short of `limit`: the
 * same rule from that frontier, its window sized by the rows left (the engine's own accounting,
 * candidateRowsFor's: its echos at ECHO_ROWS and PAGE_FIXED_ROWS of its own).
 */
export async function fillEnginePage(
  app: App,
  rule: FeedRule,
  viewerId: string,
  fed: EngineFed,
  limit: number,
  window: number,
  now: number,
  whileScroll: string | null,
  hiding: Hiding,
): Promise<EngineFed> {
  const want = limit - fed.rows.length;
  if (want <= 0 || !fed.hasMore || fed.after === null) return fed;
  const rows = rowsLeftAfterOneTrip(app, "FEED_FILL");
  if (rows === null) return fed;
  // a numbered window's entry costs about 3 rows (windowSize), a hider's scan's its own
  // (probedEntryRows): the split's rate is per entry of it
  const scans = hiding === true;
  const fixed = PAGE_FIXED_ROWS + streams(rule).length;
  // (the rate: echos an entry of the first statement — a hider's scan walked its probedScan entries, not the window's)
  const walked = scans ? probedScan(rule, window, limit).entries : window;
  const size = fillSize(rows, want, (fed.rows.length + 1) / (walked + 1), scans ? probedEntryRows(rule) : 3, fixed, 1);
  if (!size) return fed;
  const candidates = rows - PAGE_FIXED_ROWS - ECHO_ROWS * (size.shown + 1);
  // (a numbered window of fewer than ENGINE_FILL_MIN rows is not sent, nor a scan of fewer than
  // SCAN_FILL_MIN: its frontier is one entry, not FEED_STEP)
  if (candidates < (scans ? SCAN_FILL_MIN : ENGINE_FILL_MIN)) return fed;
  const seek: Seek = { id: fed.after.id, likes: rule.sortBy === "mostLiked" ? fed.after.likesCount : undefined };
  // a hider's scan reads its first entry as its frontier, not its FEED_STEP-th (FILL_STEP: the
  // first statement has moved the page on; this one only says where it stopped)
  const [more] = await batch(app.db, [feedPageQuery(rule, viewerId, now, seek, size.shown, 0, windowSize(rule, candidates), whileScroll, hiding, scans ? FILL_STEP : FEED_STEP)]);
  const next = feedPage(rule, more, size.shown, now);
  return { rows: [...fed.rows, ...next.rows], hasMore: next.hasMore, after: next.hasMore ? next.after : null };
}
