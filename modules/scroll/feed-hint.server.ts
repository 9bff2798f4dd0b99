// A cold isolate's first page of a feed, read as a warm isolate reads it (issue 27, decision 020
// "A cold isolate's first page"). A scroll's page goes in its lookup's round trip only when the
// isolate already knows the feed's rule (pages.server.ts, `feedRules`) and its index's reach
// (`builtIndexes`); an isolate's first read of a feed spent that trip on the lookup and a guess
// that reads nothing, so a page past an index's frontier had one trip left: short. Here a per-scroll
// hint in KV — the rule and the reach the lookup last found — tells the isolate on its first read
// what a warm isolate knows, without a D1 round trip; the page it builds is guarded in SQL by the
// scroll still holding that rule (holdsRule), as a warm isolate's is, so a stale hint reads
// nothing and the page is read again with the lookup's rule (≤ 2 round trips still).
//
// KV is asked once per scroll per isolate (never on a warm read), and written only when the
// lookup shows the hint missing or wrong — its rule, or a reach the index no longer has — once
// per isolate per value, and when a scroll's rule is edited: never per read (KV allows one write
// a second per key). A reach that grew (an extension landed) is left: a page between the two
// frontiers is the scan's, full, until a reader's lookup finds the hint wrong for another reason.
import * as v from "valibot";
import { isId } from "../shared/index";
import { boundedHints, holdBatch, type AppContext, type Result } from "../shared/index.server";
import { before, ofEverything, reachOf, type IndexReach, type scrollIndexState } from "./feed-index.server";
import { sameRule } from "./rule.server";
import { MATCH_TYPES, MAX_RULE_AUTHORS, MAX_RULE_TAGS, SORTS, TIME_RANGES, type FeedRule } from "./schema";

/** What a cold isolate learns of a feed scroll: its rule, and its index's reach when ready. */
export type FeedHint = { rule: FeedRule; reach: IndexReach | null };

const keyOf = (scrollId: string) => `feed-hint:1:${scrollId}`;
/** A hint nobody rewrote in 30 days expires (a deleted scroll's goes with it); the cron writes every
 * feed's again before that (feed-hint-writes.server.ts, HINT_REFRESH_MS). */
export const HINT_TTL_SECONDS = 30 * 24 * 3600;

const tags = v.pipe(v.array(v.pipe(v.string(), v.maxLength(100))), v.maxLength(MAX_RULE_TAGS));
const at = v.object({ rank: v.number(), id: v.pipe(v.string(), v.maxLength(40)) });
const HintSchema = v.object({
  rule: v.object({
    tagMatchType: v.picklist(MATCH_TYPES),
    includedTags: tags,
    excludedTags: tags,
    authors: v.pipe(v.array(v.pipe(v.string(), v.check((id: string) => isId(id)))), v.maxLength(MAX_RULE_AUTHORS)),
    sortBy: v.picklist(SORTS),
    sortTimeRange: v.picklist(TIME_RANGES),
    excludeLikedEchos: v.boolean(),
    startDate: v.nullable(v.number()),
    endDate: v.nullable(v.number()),
    replies: v.optional(v.boolean()),
  }),
  reach: v.nullable(v.object({ complete: v.boolean(), floor: v.nullable(at), near: v.optional(v.nullable(at)) })),
});

/**
 * Scrolls whose hint this isolate read, with what KV held (null: none, or not for a feed). At
 * most 1,000; a scroll forgotten here is asked again on its next cold read.
 */
const readHints = boundedHints<string, FeedHint | null>(1000);

/**
 * For a scroll this isolate has no rule for: its hint from KV, the first time this isolate reads
 * it (else null). `then` builds and sends the page's statements (the lookup and the guess): the
 * request's first batch waits for it (holdBatch), so the KV read adds no round trip — the
 * session check and the lookup still go together. `then` must send before it awaits anything.
 */
export async function withColdHint<T>(app: Pick<AppContext, "env" | "db">, scrollId: string, then: (hint: FeedHint | null) => T): Promise<T> {
  // a hint this isolate read already (the rule's own hint may have been forgotten first)
  const had = readHints.get(scrollId);
  if (had !== undefined || !isId(scrollId)) return then(had ? usable(had) : null);
  let sent!: () => void;
  holdBatch(app.db, new Promise<void>((resolve) => (sent = resolve)));
  try {
    const hint = await readHint(app, scrollId);
    if (hint !== undefined) readHints.set(scrollId, hint);
    return then(hint ? usable(hint) : null);
  } finally {
    sent();
  }
}

/** A hint of a rule whose index was not ready says nothing the lookup will not — but a rule of
 * everything's: a reader whom nothing hides reads its engine, index or not (pages.server.ts). */
const usable = (hint: FeedHint): FeedHint | null => (hint.reach !== null || ofEverything(hint.rule) ? hint : null);

/**
 * How long a request's first batch waits for KV at most: past it, the page is read as before
 * (its lookup first). A KV read at the edge answers in a few milliseconds when the key is cached
 * there; the round trip it saves is a D1 one.
 */
const HINT_WAIT_MS = 100;

/** The hint KV holds (null: none), or undefined when KV did not answer in time or failed. */
async function readHint(app: Pick<AppContext, "env">, scrollId: string): Promise<FeedHint | null | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), HINT_WAIT_MS)));
    const got = await Promise.race([app.env.KV.get(keyOf(scrollId), "json"), late]);
    if (got === undefined) return undefined;
    const parsed = v.safeParse(HintSchema, got);
    return parsed.success ? (parsed.output as FeedHint) : null;
  } catch (error) {
    // KV unreachable: the page is read as before (its lookup first)
    console.error("KV read failed; feed hint skipped", error);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * After a cold read's lookup: the hint this isolate read, written again when it was missing or is
 * wrong for the feed the lookup found (`reach`: its index's reach, null when not ready). Nothing
 * for a scroll this isolate did not read a hint of (a warm read) or that is not a feed.
 */
export function noteFeedHint(app: Pick<AppContext, "env" | "ctx">, scrollId: string, rule: FeedRule, reach: IndexReach | null): void {
  const had = readHints.get(scrollId);
  if (had === undefined || (had !== null && !stale(had, rule, reach))) return;
  const hint: FeedHint = { rule, reach };
  readHints.set(scrollId, hint);
  putHint(app, scrollId, hint);
}

/**
 * After a scroll was created, forked or its rule edited: its hint names the rule, and its index's
 * reach when that index is ready (a rule shared with other scrolls). A new rule's index is still
 * building: the consumer writes the reach when it is ready (feed-hint-writes.server.ts), so a new
 * scroll's unusable hint is not written (`replaces`: an edit's is, over the old rule's; KV takes
 * one write a second a key, and a backfill that ends within it finds its write refused — the
 * scroll's first cold read then writes it, as a stale hint's).
 */
export function feedHintSaved(app: Pick<AppContext, "env" | "ctx">, scrollId: string, rule: FeedRule, reach: IndexReach | null, replaces = true): void {
  readHints.delete(scrollId);
  const hint = { rule, reach };
  if (replaces || usable(hint)) void putHint(app, scrollId, hint);
}

/** The index state of a saved scroll (feed-index.server's scrollIndexState, read in the save's
 * batch) as its hint's reach: none when its rule's index is not ready. */
export const reachOfState = (rows: unknown): IndexReach | null => {
  const row = (rows as Result<ReturnType<typeof scrollIndexState>> | undefined)?.[0];
  return row ? reachOf(row) : null;
};

/** Write a scroll's hint (in the background: `waitUntil`); whether KV took it. */
export function putHint(app: Pick<AppContext, "env" | "ctx">, scrollId: string, hint: FeedHint): Promise<boolean> {
  const put = app.env.KV.put(keyOf(scrollId), JSON.stringify(hint), { expirationTtl: HINT_TTL_SECONDS }).then(
    () => true,
    (error: unknown) => {
      console.error("KV write failed; feed hint not kept", error);
      return false;
    },
  );
  app.ctx.waitUntil(put);
  return put;
}

/**
 * Whether a hint misleads a cold isolate about the feed the lookup found: another rule, an index
 * that became ready, complete or incomplete, or a frontier that moved up (the index gave a slice
 * back). A frontier that moved deeper is not: the hint's guess is then a scan past its old
 * frontier, a full page still.
 */
function stale(hint: FeedHint, rule: FeedRule, reach: IndexReach | null): boolean {
  if (!sameRule(hint.rule, rule)) return true;
  const was = hint.reach;
  if (was === null || reach === null) return was !== reach;
  if (was.complete !== reach.complete) return true;
  if (reach.complete) return false;
  if (was.floor === null || reach.floor === null) return (was.floor === null) !== (reach.floor === null);
  return before(rule, reach.floor, was.floor);
}
