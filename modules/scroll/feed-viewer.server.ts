// What a feed page's path depends on in its viewer (issue 32, decision 026, "The page's path
// chosen knowing the viewer"): whether anything may hide an echo from them (their blocks and
// mutes, muted words, moderation: `viewerFiltersText`), and whether every author a rule names is
// one they hide. Both are read in a batch the page sends anyway (one row each: the viewer's set,
// their words' row, the moderation row), so they cost no round trip; the first is remembered per
// isolate, so that the next page's statement — built before its batch is sent — is the one path
// that suits the viewer instead of both paths chosen between in SQL (decision 026: two copies of a
// rule's merge passed D1's statement size for a 14-tag rule, and a LIMIT-0 copy still read each
// stream's first entry for every viewer).
import { isId } from "../shared/index";
import { boundedHints, moderatesAnyoneText, select, sql, viewerHidesText, type Select } from "../shared/index.server";
import type { PageRequest } from "../echo/index.server";
import { lit, namedHiddenText, NOBODY } from "./feed-streams.server";
import { echoPage } from "./rows.server";
import type { FeedRule, ScrollEchoPage } from "./schema";

/** Whether anything may hide an echo from the viewer (`filters`), whether they hide anyone or any
 * word themselves (`hides`: the kind of viewer index their pages read, decision 033) and, for a
 * rule naming authors, whether the viewer hides any of them (`some`) or every one (`gone`: the
 * feed is empty for them, whatever it holds). */
export type ViewerFacts = { filters: number; hides: number; some: number; gone: number };

/** The facts in one statement (the viewer's set read once for each of `some` and `gone`, whatever
 * the count of authors; `hides` once, the moderation row only where it is false, as `viewerFiltersText`). */
export function viewerFacts(viewerId: string, rule: FeedRule | null): Select<ViewerFacts> {
  if (!isId(viewerId)) throw new Error("feed viewer: bad viewer id");
  const named = (every: boolean) => sql.raw(rule ? namedHiddenText(rule, viewerId, every) : "0");
  return select(
    { filters: sql<number>`(f.hides OR ${sql.raw(moderatesAnyoneText)})`, hides: sql<number>`f.hides`, some: sql<number>`${named(false)}`, gone: sql<number>`${named(true)}` },
    sql`FROM (SELECT ${sql.raw(viewerHidesText(lit(viewerId)))} AS hides) f`,
  );
}

/**
 * What this isolate last read of each viewer's `filters` (at most HINTS viewers, the oldest
 * forgotten first). A hint, never an answer: either path is right for any viewer — the scan of a
 * viewer believed to hide anything tests every echo it shows (shownTo) — so a stale hint costs a
 * page's fullness or a few rows, never an echo the viewer must not see.
 */
const hints = boundedHints<string, { filters: boolean; hides: boolean }>(10_000);

export function hidingHint(viewerId: string): boolean | undefined {
  return hints.get(viewerId)?.filters;
}

/** What this isolate last read of the viewer's `hides`: the kind of viewer index their page reads. */
export function hidesHint(viewerId: string): boolean | undefined {
  return hints.get(viewerId)?.hides;
}

export function learnHiding(viewerId: string, facts: ViewerFacts | undefined): void {
  if (facts) hints.set(viewerId, { filters: facts.filters === 1, hides: facts.hides === 1 });
}

/** The viewer's facts for a feed page's batch: for a reader who is not a user (web feeds), nothing to read. */
export const viewerFactsFor = (viewerId: string, rule: FeedRule | null): Select<ViewerFacts> =>
  isId(viewerId) && viewerId !== NOBODY ? viewerFacts(viewerId, rule) : select({ filters: sql<number>`0`, hides: sql<number>`0`, some: sql<number>`0`, gone: sql<number>`0` }, sql``);

/**
 * After a feed page's batch: its facts remembered, and when the viewer hides every author the
 * rule names, the page is empty and the feed ends for them (issue 32) — whatever the page read
 * (an index walk over those authors' entries, empty with more to come, page after page).
 */
export function goneFor(viewerId: string, viewer: ViewerFacts[] | undefined, req: PageRequest): ScrollEchoPage | null {
  learnHiding(viewerId, viewer?.[0]);
  return viewer?.[0]?.gone ? echoPage([], req, (req.page - 1) * req.limit, false, null) : null;
}
