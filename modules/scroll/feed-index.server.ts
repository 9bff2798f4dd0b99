// The feed index (issue 27, docs/decisions/020-feed-index.md): a feed's newest matches, kept on
// write from the change stream (Cloudflare Queues; modules/shared/change-stream.server.ts), so a
// feed the engine can only fill a window at a time (a sparse rule: its first screen took up to 40
// requests) answers a full page in one. One index per canonical rule: identical rules (forks, the
// many copies of one rule) share it. The engine (feed-rules.server.ts) stays the reference, the
// backfill's reader, and the server of what the index does not hold.
import { isId } from "../shared/index";
import { batch, select, sendChanges, sql, tables, type AppContext, type Change, type ChangedEcho, type Db, type Select, type SQL } from "../shared/index.server";
import { echoColumns, type EchoRow } from "../echo/index.server";
import { ruleChecks } from "./feed-rules.reference";
import { feedPage, feedPageQuery, windowSize, type Seek } from "./feed-rules.server";
import type { FeedRule } from "./schema";

/** Entries an index keeps: the newest 500 matches (25 pages of 20); the engine serves deeper. */
export const INDEX_CAP = 500;
/**
 * The most entries one page reads from an index: each costs about 3 rows (the entry, the echo,
 * its author; the reader's like probe), measured at 128 rows for a 40-entry web feed with its
 * scroll lookup, so 50 — a web feed's page — stay near 160. A page asked for more (the API allows
 * 100) answers 50 with more to come.
 */
export const INDEX_PAGE_MAX = 50;
/** Candidate rows one backfill step of the engine may read (not a reader's request: larger). */
const BACKFILL_CANDIDATES = 2000;
/** Engine steps per backfill message: one message stays well inside a consumer's time. */
const BACKFILL_STEPS = 4;
/** A viewer for the engine where no viewer matters (the canonical rule never hides liked echos). */
const NO_VIEWER = "0".repeat(26);

/**
 * Rules the index serves: newest first, driven by tags or authors. A rule with neither reads the
 * echos table, dense enough for the engine; oldest-first and most-liked orders are not indexed
 * yet (decision 020, "What is left").
 */
export function indexable(rule: FeedRule): boolean {
  return rule.sortBy === "newestFirst" && (rule.includedTags.length > 0 || rule.authors.length > 0);
}

const sorted = (list: string[]) => [...new Set(list)].sort();

/** The rule as its index knows it: sets in order, "hide liked" left to each reader; its fields
 * always in this order, so equal rules have one key. */
export function canonicalRule(rule: FeedRule): FeedRule {
  return {
    tagMatchType: rule.includedTags.length === 0 ? "any" : rule.tagMatchType,
    includedTags: sorted(rule.includedTags),
    excludedTags: sorted(rule.excludedTags),
    authors: sorted(rule.authors),
    sortBy: rule.sortBy,
    sortTimeRange: rule.sortBy === "mostLiked" ? rule.sortTimeRange : "allTime",
    excludeLikedEchos: false,
    startDate: rule.startDate,
    endDate: rule.endDate,
  };
}

/** An index's key: its canonical rule as JSON (feed_indexes.rule_key, scrolls.rule_key). */
export const ruleKeyOf = (rule: FeedRule): string => JSON.stringify(canonicalRule(rule));

/** The rule back from its key. */
export const ruleOfKey = (key: string): FeedRule => JSON.parse(key) as FeedRule;

/**
 * What a new echo must carry for the rule to possibly match it: its author when the rule names
 * authors, else one of its included tags (any-of, less the excluded ones) or the first of them
 * (all-of: a match carries every one). A post reaches the indexes of its own tags and author only.
 */
export function ruleTerms(rule: FeedRule): string[] {
  if (rule.authors.length > 0) return rule.authors.map((a) => `a:${a}`);
  const tags = sorted(rule.includedTags);
  if (rule.tagMatchType === "all") return tags.slice(0, 1).map((t) => `t:${t}`);
  return tags.filter((t) => !rule.excludedTags.includes(t)).map((t) => `t:${t}`);
}

const echoTerms = (echo: ChangedEcho) => [...echo.tags.map((t) => `t:${t}`), `a:${echo.authorId}`];

/**
 * The statements that give a rule its index (when it has none) and register its terms, for the
 * batch that saves the rule; `within` is that batch's rate-limit guard (a refused save writes
 * nothing). The backfill is sent after the batch committed (`startBackfill`).
 */
export function indexStatements(rule: FeedRule, within: SQL, now = Date.now()): SQL[] {
  if (!indexable(rule)) return [];
  const key = ruleKeyOf(rule);
  return [
    sql`INSERT INTO feed_indexes (rule_key, state, created_at, updated_at)
        SELECT ${key}, 'building', ${now}, ${now} WHERE ${within} ON CONFLICT (rule_key) DO NOTHING`,
    sql`INSERT OR IGNORE INTO feed_rule_terms (term, index_id)
        SELECT j.value, (SELECT id FROM feed_indexes WHERE rule_key = ${key}) FROM json_each(${JSON.stringify(ruleTerms(rule))}) j
        WHERE ${within}`,
  ];
}

/** After the rule's batch committed: build its index in the background (a ready one is left as it is). */
export function startBackfill(app: Pick<AppContext, "env" | "ctx">, rule: FeedRule): void {
  if (indexable(rule)) sendChanges(app, [{ type: "backfill", ruleKey: ruleKeyOf(rule), cursor: null }]);
}

/** What a batch of changes did: candidate indexes looked at per post, entries written. */
export type Consumed = { posts: number; candidates: number; written: number; deleted: number; backfills: number };

/**
 * The consumer: one batch of the change stream. Posts reach only the indexes registered under
 * their tags and author; each candidate's rule is tested on the echo (the reference's per-echo
 * checks, which the property test holds equal to the engine); the matches are written with
 * INSERT OR IGNORE, so a message delivered twice writes nothing more. Deletes remove the echo's
 * entries everywhere. Backfills go on building.
 */
export async function consumeChanges(app: Pick<AppContext, "env" | "ctx">, db: Db, changes: Change[], now = Date.now()): Promise<Consumed> {
  const done: Consumed = { posts: 0, candidates: 0, written: 0, deleted: 0, backfills: 0 };
  const posts = changes.flatMap((c) => (c.type === "post" ? [c.echo] : []));
  const deletes = changes.flatMap((c) => (c.type === "delete" ? c.echoIds : []));
  if (posts.length > 0) {
    const terms = [...new Set(posts.flatMap(echoTerms))];
    const [candidates] = await batch(db, [
      select(
        { id: tables.feedIndexes.id, ruleKey: tables.feedIndexes.ruleKey, terms: sql<string>`json_group_array(ft.term)` },
        sql`FROM feed_rule_terms ft JOIN feed_indexes ON feed_indexes.id = ft.index_id
          WHERE ft.term IN (SELECT value FROM json_each(${JSON.stringify(terms)})) GROUP BY feed_indexes.id`,
      ),
    ]);
    const pairs: [number, string][] = [];
    for (const echo of posts) {
      const mine = new Set(echoTerms(echo));
      const facts = { id: echo.id, authorId: echo.authorId, tags: echo.tags, createdAt: echo.createdAt, likes: 0 };
      for (const c of candidates) {
        if (!(JSON.parse(c.terms) as string[]).some((t) => mine.has(t))) continue;
        done.candidates++;
        if (ruleChecks(ruleOfKey(c.ruleKey), facts, false, now).every((check) => check.passed)) pairs.push([c.id, echo.id]);
      }
    }
    done.posts = posts.length;
    if (pairs.length > 0) done.written = await writeEntries(db, pairs);
  }
  if (deletes.length > 0) {
    await batch(db, [sql`DELETE FROM feed_index_entries WHERE echo_id IN (SELECT value FROM json_each(${JSON.stringify(deletes)}))`]);
    done.deleted = deletes.length;
  }
  for (const change of changes) {
    if (change.type !== "backfill") continue;
    done.backfills++;
    const next = await backfillStep(db, change.ruleKey, now);
    if (next) sendChanges(app, [next]);
  }
  return done;
}

/** Entries for (index, echo) pairs, only for echos that still exist; a repeat writes nothing. */
async function writeEntries(db: Db, pairs: [number, string][]): Promise<number> {
  await batch(db, [
    sql`INSERT OR IGNORE INTO feed_index_entries (index_id, echo_id)
        SELECT json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]') FROM json_each(${JSON.stringify(pairs)}) j
        WHERE EXISTS (SELECT 1 FROM echos WHERE id = json_extract(j.value, '$[1]'))`,
  ]);
  return pairs.length;
}

/**
 * Build an index a few engine windows further, from where it stopped (its stored cursor: a
 * message delivered twice repeats nothing). It is ready when the engine found every match
 * (complete) or the index holds INDEX_CAP entries (then its `floor`: every match at or above it is
 * in the index, and pages below it come from the engine). Returns the next message, if any.
 */
export async function backfillStep(db: Db, ruleKey: string, now = Date.now()): Promise<Change | null> {
  const fi = tables.feedIndexes;
  const [found] = await batch(db, [
    select(
      { id: fi.id, state: fi.state, cursor: fi.cursor, entries: sql<number>`(SELECT count(*) FROM (SELECT 1 FROM feed_index_entries WHERE index_id = feed_indexes.id LIMIT ${INDEX_CAP}))` },
      sql`FROM feed_indexes WHERE rule_key = ${ruleKey}`,
    ),
  ]);
  const index = found[0];
  if (!index || index.state === "ready") return null;
  const rule = ruleOfKey(ruleKey);
  const window = windowSize(rule, BACKFILL_CANDIDATES);
  let seek: Seek = index.cursor && isId(index.cursor) ? { id: index.cursor } : null;
  let entries = index.entries;
  for (let step = 0; step < BACKFILL_STEPS; step++) {
    const [rows] = await batch(db, [feedPageQuery(rule, NO_VIEWER, now, seek, 200, 0, window)]);
    const fed = feedPage(rule, rows, 200, window);
    if (fed.rows.length > 0) {
      await writeEntries(db, fed.rows.map((r) => [index.id, r.id]));
      entries += fed.rows.length;
    }
    const after = fed.after?.id ?? null;
    if (!fed.hasMore || after === null) return markReady(db, index.id, true, null, now);
    seek = { id: after };
    if (entries >= INDEX_CAP) return markReady(db, index.id, false, after, now);
  }
  await batch(db, [sql`UPDATE feed_indexes SET cursor = ${seek?.id ?? null}, updated_at = ${now} WHERE id = ${index.id} AND state = 'building'`]);
  return { type: "backfill", ruleKey, cursor: seek?.id ?? null };
}

async function markReady(db: Db, id: number, complete: boolean, floor: string | null, now: number): Promise<null> {
  await batch(db, [
    sql`UPDATE feed_indexes SET state = 'ready', complete = ${complete ? 1 : 0}, floor = ${floor}, cursor = NULL,
        updated_at = ${now}, checked_at = ${now} WHERE id = ${id}`,
  ]);
  return null;
}

// ---------------------------------------------------------------------------------------------
// Reading

/** Whether the rule's index can serve the page below `position` (an echo id, "~" at the top). */
const serves = (ruleKey: string, position: string) =>
  sql`EXISTS (SELECT 1 FROM feed_indexes WHERE rule_key = ${ruleKey} AND state = 'ready'
      AND (complete = 1 OR floor IS NULL OR floor < ${position}))`;

/** The index's state for a rule: what a page read from it means at its end. */
export const indexState = (ruleKey: string) =>
  select(
    { state: tables.feedIndexes.state, complete: tables.feedIndexes.complete, floor: tables.feedIndexes.floor },
    sql`FROM feed_indexes WHERE rule_key = ${ruleKey}`,
  );

/**
 * A page from the index: its entries below the cursor, newest first, hydrated; the viewer's
 * "hide liked" tested on each (a primary-key probe). Read only when the index is ready and holds
 * this depth (`serves`); otherwise it reads the one feed_indexes row and nothing more. `guard`
 * adds the caller's own condition (the scroll still holds the rule, the viewer may see it).
 */
export function indexPageQuery(rule: FeedRule, viewerId: string, seek: Seek, limit: number, guard: SQL = sql`1`): Select<EchoRow> {
  const key = ruleKeyOf(rule);
  const position = seek?.id ?? "~";
  const hideLiked = rule.excludeLikedEchos
    ? sql`AND NOT EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = ie.echo_id AND l.user_id = ${viewerId})`
    : sql``;
  return select(
    echoColumns(viewerId),
    sql`FROM feed_index_entries ie JOIN echos e ON e.id = ie.echo_id JOIN users u ON u.id = e.author_id
      WHERE ie.index_id = (SELECT id FROM feed_indexes WHERE rule_key = ${key}) AND ie.echo_id < ${position}
        AND ${serves(key, position)} AND ${guard} ${hideLiked}
      ORDER BY ie.echo_id DESC LIMIT ${limit + 1}`,
  );
}



// ---------------------------------------------------------------------------------------------
// Repair (the cron, every 5 minutes): nothing lost, nothing drifts

/** Ready indexes checked per pass (the longest unchecked first), and the depth each is compared to. */
const REPAIR_INDEXES = 20;
const REPAIR_DEPTH = 100;
/** Candidate rows the repair's engine read may use per index. */
const REPAIR_CANDIDATES = 5000;
/** A backfill that has not moved for this long lost its message: it is sent again. */
const STUCK_MS = 60_000;

export type Repaired = { keyed: number; resumed: number; checked: number; added: number; removed: number; trimmed: number; dropped: number };

/**
 * One repair pass, bounded: existing feeds without a key get their index; stuck backfills are
 * sent again (from their stored cursor); the indexes checked longest ago are compared with the
 * engine over their newest REPAIR_DEPTH matches — what is missing is written, what should not be
 * there (an echo deleted while its message was lost, a rule-test drift) is removed — and trimmed
 * back to INDEX_CAP entries; indexes no scroll reads any more are dropped.
 */
export async function repairIndexes(app: Pick<AppContext, "env" | "ctx">, db: Db, now = Date.now(), indexes = REPAIR_INDEXES): Promise<Repaired> {
  const done: Repaired = { keyed: 0, resumed: 0, checked: 0, added: 0, removed: 0, trimmed: 0, dropped: 0 };
  const sc = tables.scrolls;
  const fi = tables.feedIndexes;
  const [unkeyed, stuck, due, orphans] = await batch(db, [
    select(
      { id: sc.id, tagMatchType: sc.tagMatchType, includedTags: sc.includedTags, excludedTags: sc.excludedTags, authors: sc.authors, sortBy: sc.sortBy, sortTimeRange: sc.sortTimeRange, excludeLikedEchos: sc.excludeLikedEchos, startDate: sc.startDate, endDate: sc.endDate },
      sql`FROM scrolls WHERE type = 'feed' AND rule_key IS NULL LIMIT 50`,
    ),
    select({ ruleKey: fi.ruleKey }, sql`FROM feed_indexes WHERE state = 'building' AND updated_at < ${now - STUCK_MS} LIMIT 20`),
    select({ id: fi.id, ruleKey: fi.ruleKey, complete: fi.complete, floor: fi.floor }, sql`FROM feed_indexes WHERE state = 'ready' ORDER BY checked_at LIMIT ${indexes}`),
    select({ id: fi.id }, sql`FROM feed_indexes WHERE NOT EXISTS (SELECT 1 FROM scrolls WHERE rule_key = feed_indexes.rule_key) LIMIT 5`),
  ]);
  const backfills: Change[] = [];
  const keying: SQL[] = [];
  for (const row of unkeyed) {
    const rule: FeedRule = { ...row };
    const key = indexable(rule) ? ruleKeyOf(rule) : "";
    keying.push(sql`UPDATE scrolls SET rule_key = ${key} WHERE id = ${row.id}`, ...indexStatements(rule, sql`1`, now));
    if (key) backfills.push({ type: "backfill", ruleKey: key, cursor: null });
  }
  if (keying.length > 0) await batch(db, keying);
  done.keyed = unkeyed.length;
  for (const { ruleKey } of stuck) backfills.push({ type: "backfill", ruleKey, cursor: null });
  done.resumed = stuck.length;
  if (backfills.length > 0) sendChanges(app, backfills);
  for (const index of due) {
    const fixed = await checkIndex(db, index, now);
    done.checked++;
    done.added += fixed.added;
    done.removed += fixed.removed;
    done.trimmed += fixed.trimmed;
  }
  if (orphans.length > 0) {
    const ids = JSON.stringify(orphans.map((o) => o.id));
    await batch(db, [
      sql`DELETE FROM feed_index_entries WHERE index_id IN (SELECT value FROM json_each(${ids}))`,
      sql`DELETE FROM feed_rule_terms WHERE index_id IN (SELECT value FROM json_each(${ids}))`,
      sql`DELETE FROM feed_indexes WHERE id IN (SELECT value FROM json_each(${ids}))`,
    ]);
    done.dropped = orphans.length;
  }
  return done;
}

/** Compare one index's newest entries with the engine's newest matches, fix the difference, trim. */
async function checkIndex(db: Db, index: { id: number; ruleKey: string; complete: boolean; floor: string | null }, now: number) {
  const rule = ruleOfKey(index.ruleKey);
  const window = windowSize(rule, REPAIR_CANDIDATES);
  const [rows, held] = await batch(db, [
    feedPageQuery(rule, NO_VIEWER, now, null, REPAIR_DEPTH, 0, window),
    select({ echoId: tables.feedIndexEntries.echoId }, sql`FROM feed_index_entries WHERE index_id = ${index.id} ORDER BY echo_id DESC LIMIT ${REPAIR_DEPTH + 1}`),
  ]);
  const fed = feedPage(rule, rows, REPAIR_DEPTH, window);
  // the compared range: from the top down to where the engine's read ended (all of it when it
  // found every match), and not below the index's floor
  let low = fed.hasMore ? (fed.after?.id ?? "~") : "";
  if (index.floor !== null && index.floor > low) low = index.floor;
  const should = new Set(fed.rows.filter((r) => r.id >= low).map((r) => r.id));
  const has = new Set(held.map((h) => h.echoId).filter((id) => id >= low));
  // what the index holds below its newest REPAIR_DEPTH is not compared this time
  const heldLow = held.length > REPAIR_DEPTH ? held[REPAIR_DEPTH - 1]!.echoId : "";
  const missing = [...should].filter((id) => !has.has(id) && id >= heldLow);
  const extra = [...has].filter((id) => !should.has(id));
  const statements: SQL[] = [];
  if (missing.length > 0) {
    statements.push(sql`INSERT OR IGNORE INTO feed_index_entries (index_id, echo_id)
      SELECT ${index.id}, value FROM json_each(${JSON.stringify(missing)})`);
  }
  if (extra.length > 0) {
    statements.push(sql`DELETE FROM feed_index_entries WHERE index_id = ${index.id} AND echo_id IN (SELECT value FROM json_each(${JSON.stringify(extra)}))`);
  }
  // back to INDEX_CAP entries: the floor rises to the oldest kept, and the index is no longer complete
  if (statements.length > 0) await batch(db, statements);
  const [cut] = await batch(db, [
    select({ echoId: tables.feedIndexEntries.echoId }, sql`FROM feed_index_entries WHERE index_id = ${index.id} ORDER BY echo_id DESC LIMIT 1 OFFSET ${INDEX_CAP}`),
  ]);
  const floor = cut[0]?.echoId ?? null;
  await batch(db, [
    ...(floor !== null ? [sql`DELETE FROM feed_index_entries WHERE index_id = ${index.id} AND echo_id < ${floor}`] : []),
    floor !== null
      ? sql`UPDATE feed_indexes SET complete = 0, floor = ${floor}, checked_at = ${now} WHERE id = ${index.id}`
      : sql`UPDATE feed_indexes SET checked_at = ${now} WHERE id = ${index.id}`,
  ]);
  return { added: missing.length, removed: extra.length, trimmed: floor !== null ? 1 : 0 };
}
