// The scan window of a filtered list (issue 32, docs/decisions/026-safety.md "The scan window").
//
// A list leaves out, in its WHERE, the echos the viewer does not see (blocks, mutes, muted words,
// moderation), so a page steps over them and fills. Stepping over costs rows (a hidden candidate
// costs its echo row, on a tag or a curation its link row too), so without a bound a viewer who
// hides most candidates pays without limit. The page's candidates are therefore a lazy co-routine
// `(SELECT * FROM <list> WHERE <seek> ORDER BY <order> LIMIT window)` under the usual filters: it
// reads only what the page needs (the same rows as before when little is hidden) and never more
// than `window` candidates. `window` is sized so that the whole request, the page's shown echos
// at their worst cost included, stays within ROWS.
//
// A page that comes back short (≤ limit rows) either reached the list's end or used its window
// up. The page's batch also reads the list's last candidate (its `tail`, 1 row by the index's
// other end), so that:
// - some echo shown: the list ended if the last one shown is the list's last candidate; if not,
//   the cursor is that last echo, and the next page steps over the hidden run again (it makes
//   progress: the page showed at least one echo). A list whose tail is all hidden so ends with
//   one empty page whose cursor is null.
// - nothing shown: every candidate in the window is hidden (or skipped by a page number's
//   OFFSET, shown before), so any of them is a safe place to resume: one more statement (a
//   second round trip, only then) reads the candidate `skip` (as many as the budget has left)
//   after the start. Missing: the list ended.
//
// A short page with more to come, which showed echos and has used one round trip, is filled
// (windowPage: decision 034's idea for these lists, docs/decisions/026-safety.md "Filling a
// short page"): what D1 says the first round trip read leaves rows, since the window was sized
// for every shown echo at its worst; a second statement continues the walk after the last echo
// shown, its window sized by those rows, and its echos are appended. A page that is full (a
// reader who hides nothing, whose window holds a page) sends nothing more.
import { encodeCursor } from "../shared/index";
import { batch, rowsLeftAfterOneTrip, type AppContext, type Select } from "../shared/index.server";

/** The rows a list request may read (200) less the session check's and the counter's. */
const ROWS = 190;

/**
 * How many candidates a page of `limit` (after `offset` rows of a page number) may step over:
 * the rows left once `limit + 1` echos at their worst (`perShown` rows beyond the candidate's
 * own) are paid, at `perCandidate` rows each, and never fewer than the page needs.
 */
export function scanWindow(limit: number, offset: number, perCandidate: number, perShown: number): number {
  const shown = offset + limit + 1;
  return Math.max(shown, Math.floor((ROWS - shown * perShown) / perCandidate));
}

/** What a candidate and a shown echo cost a list (beyond the candidate's rows), at the worst; a
 * candidate its probe steps over (1 row by the list's index, unless said). */
export type ListRows = { perCandidate: number; perShown: number; perProbed?: number };

/**
 * The rows a filling statement reads besides its candidates and echos: the viewer's hidden-author
 * set and muted-word set rows and the moderation test's — measured 2 in workerd for a viewer who
 * blocks (modules/profile/list-fill.test.ts), 4 with 100 muted words, 7 on a most-liked tag page
 * of the 0.1 store (bench-hider-lists.mjs: 202 rows with 5); 8 leaves a row of margin.
 */
const FILL_FIXED = 8;

/** Fewer candidates than this are not worth a round trip. */
const FILL_MIN_WINDOW = 4;

/**
 * The list's walk continued after `from` (the last echo a short page showed): a window of
 * `window` candidates under the list's filters, at most `take` echos, no OFFSET.
 */
export type Refill<R> = (from: Key, window: number, take: number) => Select<R>;

/** How a windowed page was asked for: where it started (its cursor's key, or the top and an offset), its window, what a candidate costs, its probe. */
export type WindowAsk = { limit: number; start: Key | null; offset: number; window: number; cost: ListRows; probe: Probe };

/**
 * A windowed page's echos and cursor, from its first statement's `rows` (up to limit + 1) and
 * the list's last candidate (`tail`), filled where it came out short with more to come: it
 * showed echos, the last of them is not the list's last candidate, and the request has one round
 * trip used. The fill steps over the hidden run after that echo again (the first statement does
 * not say where its window ended) — that run is what the next page would read. In the same batch
 * the list's probe reads the fill window's last candidate (1 row a candidate), so a fill that
 * comes back short says where the list goes on — after that candidate, every one before it seen —
 * or, none, that the list ended there (no empty last page). Its window: the rows left, less
 * FILL_FIXED and the echos still wanted at their worst, at the list's cost a candidate and the
 * probe's row.
 */
export async function windowPage<R>(
  app: AppContext,
  rows: R[],
  keyOf: (row: R) => Key,
  tail: Key | undefined,
  ask: WindowAsk,
  refill: Refill<R>,
  after?: RefillAfter<R>,
): Promise<{ rows: R[]; hasMore: boolean; nextCursor: string | null }> {
  const { limit, cost } = ask;
  const cursor = async (page: R[]) => ({ rows: page, ...(await windowCursor(app, page, limit, keyOf, tail, ask.start, ask.offset, ask.window, cost.perCandidate, ask.probe)) });
  const last = rows[rows.length - 1];
  if (last === undefined && tail !== undefined && after !== undefined && ask.offset === 0) {
    const filled = await fillAfterWindow(app, ask, after);
    // as a fill: a window that gave what it was asked has echos, so its cursor is the last one's
    if (filled && filled.more.length >= filled.take) return cursor(filled.more);
    if (filled) return { rows: filled.more, hasMore: filled.frontier !== null, nextCursor: filled.frontier === null ? null : encodeCursor(filled.frontier) };
  }
  if (last === undefined || rows.length > limit || tail === undefined) return cursor(rows);
  const from = keyOf(last);
  if (from.id === tail.id) return cursor(rows);
  const left = rowsLeftAfterOneTrip(app, "LIST_FILL");
  if (left === null) return cursor(rows);
  // the echos still wanted (not one more: a full page's cursor is its last echo, as a short one's)
  const take = limit - rows.length;
  const window = Math.floor((left - FILL_FIXED - take * cost.perShown) / (cost.perCandidate + (cost.perProbed ?? 1)));
  if (window < FILL_MIN_WINDOW) return cursor(rows);
  const [more, end] = await batch(app.db, [refill(from, window, take), ask.probe(from, window - 1)]);
  const page = [...rows, ...more];
  // full: its cursor is its last echo's (windowCursor, no probe: the page shows echos)
  if (more.length >= take) return cursor(page);
  const frontier = end[0];
  return { rows: page, hasMore: frontier !== undefined, nextCursor: frontier === undefined ? null : encodeCursor(frontier) };
}

/**
 * The list's walk continued after the candidate `skip` after `start` (null: the list's top), a
 * place the fill's own statement finds (a scalar subquery over the list's index, `skip + 1` rows
 * at `perProbed` each): a window of `window` candidates under the list's filters, at most `take`
 * echos, no OFFSET.
 */
export type RefillAfter<R> = (start: Key | null, skip: number, window: number, take: number) => Select<R>;

/**
 * A page that showed nothing (every candidate of its window hidden) and has used one round trip:
 * its second statement finds where the window ended and walks on from there (RefillAfter), and
 * the list's probe, in the same batch, reads the fill window's last candidate. The rows left pay,
 * at the worst: the window's candidates read twice by the index (the seek and the probe), the
 * fill's candidates and the probe's row for each, the echos it may show (a window of `w` shows at
 * most `w`) and FILL_FIXED. `frontier`: where the list goes on if the fill came back short (null:
 * the list ended there).
 */
async function fillAfterWindow<R>(app: AppContext, ask: WindowAsk, after: RefillAfter<R>): Promise<{ more: R[]; take: number; frontier: Key | null } | null> {
  const left = rowsLeftAfterOneTrip(app, "LIST_FILL");
  if (left === null) return null;
  const { limit, cost, window: first } = ask;
  const probed = cost.perProbed ?? 1;
  const room = left - FILL_FIXED - 2 * first * probed;
  const per = cost.perCandidate + probed;
  const small = Math.floor(room / (per + cost.perShown));
  const window = small >= limit ? Math.floor((room - limit * cost.perShown) / per) : small;
  if (window < FILL_MIN_WINDOW) return null;
  const take = Math.min(limit, window);
  const [more, end] = await batch(app.db, [after(ask.start, first - 1, window, take), ask.probe(ask.start, first + window - 1)]);
  return { more, take, frontier: end[0] ?? null };
}

/** A candidate's sort key as the list's cursor carries it. */
export type Key = { id: string; l?: number; a?: number };

/**
 * The candidate `skip` rows after `from` (null: the list's top) in the list's order, if any:
 * one statement over the list's index, reading `skip + 1` rows.
 */
export type Probe = (from: Key | null, skip: number) => Select<Key>;

/**
 * The next cursor of a page that came back with `rows` (up to limit + 1 read): null when the
 * list ended. `start` is where the page began (its cursor's key, or null from the top); `tail`
 * the list's last candidate, read in the page's batch.
 */
export async function windowCursor<R>(
  app: AppContext,
  rows: R[],
  limit: number,
  keyOf: (row: R) => Key,
  tail: Key | undefined,
  start: Key | null,
  offset: number,
  window: number,
  perCandidate: number,
  probe: Probe,
): Promise<{ hasMore: boolean; nextCursor: string | null }> {
  if (rows.length > limit) return { hasMore: true, nextCursor: encodeCursor(keyOf(rows[limit - 1]!)) };
  const last = rows[rows.length - 1];
  if (last !== undefined) {
    const key = keyOf(last);
    return tail === undefined || tail.id === key.id ? { hasMore: false, nextCursor: null } : { hasMore: true, nextCursor: encodeCursor(key) };
  }
  if (tail === undefined) return { hasMore: false, nextCursor: null };
  // nothing shown: resume inside the window, as far as the rows left allow (at least one on)
  const skip = Math.max(0, Math.min(offset + window, Math.floor(ROWS - window * perCandidate)) - 1);
  const [at] = await batch(app.db, [probe(start, skip)]);
  const frontier = at[0];
  if (frontier === undefined) return { hasMore: false, nextCursor: null };
  return { hasMore: true, nextCursor: encodeCursor(frontier) };
}
