// The feed index (issue 27, docs/decisions/020-feed-index.md): a feed's newest matches, kept on
// write from the change stream (Cloudflare Queues; modules/shared/change-stream.server.ts), so a
// feed the engine can only fill a window at a time (a sparse rule: its first screen took up to 40
// requests) answers a full page in one. One index per canonical rule: identical rules (forks, the
// many copies of one rule) share it. The engine (feed-rules.server.ts) stays the reference, the
// backfill's reader, and the server of what the index does not hold.
import { DEFAULT_LIMIT, ECHO_ROWS, idFloor, idTime, isId, largestPage, PAGE_ROW_TARGET } from "../shared/index";
import { authorVisibleText, echoVisibleProbeText, echoVisibleText, moderationEchoVisibleText, viewerFiltersText, batch, select, sendChanges, sql, tables, type AppContext, type Change, type ChangedEcho, type Db, type Select, type SQL } from "../shared/index.server";
import { echoColumns, type EchoRow } from "../echo/index.server";
import { ruleChecks } from "./feed-rules.reference";
import { feedMatchQuery, feedPage, NOBODY, windowSize, type FeedMatchRow, type Seek } from "./feed-rules.server";
import { canonicalRule, ruleColumns, ruleKeyOf, ruleOfKey, toRule } from "./rule.server";
import { TIME_RANGE_MS, type FeedRule } from "./schema";

/**
 * Entries an index keeps: the first 500 matches in its feed's order (25 pages of 20) where the
 * engine fills pages by itself past them; up to SPARSE_CAP (500 pages of 20) for a rule whose
 * matches are too thin among its streams' entries for the engine to fill a page (the backfill
 * measures it), and for a short window's most liked. Past the frontier, the engine serves.
 */
export const INDEX_CAP = 500;
export const SPARSE_CAP = 10_000;
/** Below this many entries a windowed index whose frontier aged is built again. */
const DRAINED = 250;
/** The page a reader's engine window must fill for a rule to count as dense: a first screen. */
const SCREEN = 20;
/**
 * A rule is dense when a reader's window is expected to hold DENSE_MARGIN screens of its matches:
 * a window that holds one on average falls short about half the time (measured: 73 of 597 public
 * feeds of the 100,000-echo store had a short first page from a dense rule's engine window at a
 * margin of 1). The reader's window is the smaller one of a reader who hides what they liked.
 */
const DENSE_MARGIN = 2;
const readerWindow = (rule: FeedRule) => windowSize({ ...rule, excludeLikedEchos: true });
/**
 * `cap` of a dense rule's index: its backfill found the rule's matches dense enough for a reader's
 * engine window to fill a screen, so the index keeps no entries, takes no posts or likes (its
 * terms are removed) and its pages come from the engine; it stays "ready".
 */
export const DENSE = 0;
/**
 * The most entries one page reads from an index: each costs the entry and its echo's rows
 * (ECHO_ROWS at worst: the echo, its author, the reader's like and repost, a quote's quoted echo),
 * and for a viewer who hides anyone a probe of the entry's echo: 7 an entry, so 24 (36 when an
 * echo read 3 rows; decision 027, "Pages sized by rows per echo"). A web feed's 50 entries come
 * as 24 from an index; an API page asked for more answers 24 with more to come.
 */
export const INDEX_PAGE_MAX = largestPage(ECHO_ROWS + 2);
/** Candidate rows one backfill step of the engine may read (not a reader's request: larger). */
const BACKFILL_CANDIDATES = 10_000;
/** Matches one backfill step writes at most. */
const BACKFILL_PAGE = 1000;
/** Engine steps per backfill message, and the time after which it sends the next message
 * instead: one message stays well inside a consumer's time. */
const BACKFILL_STEPS = 8;
const BACKFILL_MS = 2000;
/** Backfills one consumer batch runs side by side. */
const BACKFILL_CONCURRENCY = 4;
/** A viewer for the engine where no viewer matters (the canonical rule never hides liked echos). */
const NO_VIEWER = NOBODY;

/**
 * Rules the index may serve: every rule that tests its candidates — tags, authors, exclusions —
 * and every most-liked rule (its windows and like counts move: the engine reads a likes-ordered
 * stream that a window makes sparse). A newest- or oldest-first rule with none of these reads
 * the echos table in its own order (dates are a range of it): every entry matches. The backfill
 * then keeps entries only where the engine would answer short pages (`DENSE`).
 */
export function indexable(rule: FeedRule): boolean {
  return rule.sortBy === "mostLiked" || rule.includedTags.length > 0 || rule.authors.length > 0 || rule.excludedTags.length > 0;
}

/** A feed's scrolls.rule_key: the key of the index it reads (rule.server.ts, ruleKeyOf), or "" for
 * a rule the engine serves alone. */
export const indexKeyOf = (rule: FeedRule): string => (indexable(rule) ? ruleKeyOf(rule) : "");

// ---------------------------------------------------------------------------------------------
// Positions in a feed's order

/** Where an echo stands in a feed: (rank, id), rank its like count in a most-liked feed, else 0. */
export type Position = { rank: number; id: string };
/** How far an index reaches: all of its rule's matches, or every match up to its frontier `floor`;
 * nothing for a dense rule (its pages come from the engine). */
export type IndexReach = { complete: boolean; floor: Position | null; dense?: boolean };

const descending = (rule: FeedRule) => rule.sortBy !== "oldestFirst";
/** Above every echo of the feed: where its first page starts. */
export const topOf = (rule: FeedRule): Position => (descending(rule) ? { rank: Number.MAX_SAFE_INTEGER, id: "~" } : { rank: 0, id: "" });
/** A page's starting point (its cursor) as a position. */
export const positionOf = (rule: FeedRule, seek: Seek): Position =>
  seek ? { rank: rule.sortBy === "mostLiked" ? (seek.likes ?? 0) : 0, id: seek.id } : topOf(rule);
/** Whether `a` comes before `b` in the feed. */
export function before(rule: FeedRule, a: Position, b: Position): boolean {
  if (!descending(rule)) return a.id < b.id;
  return a.rank !== b.rank ? a.rank > b.rank : a.id > b.id;
}
/** Whether the index holds every match after `position` for at least one entry: a page from there can be read from it. */
export const reaches = (rule: FeedRule, st: IndexReach, position: Position): boolean =>
  !st.dense && (st.complete || st.floor === null || before(rule, position, st.floor));
/** The frontier as the feed_indexes row stores it. */
export const reachOf = (row: { complete: boolean | number; floor: string | null; floorRank: number | null; cap?: number | null }): IndexReach => ({
  complete: row.complete === true || row.complete === 1,
  floor: row.floor === null ? null : { rank: row.floorRank ?? 0, id: row.floor },
  dense: row.cap === DENSE,
});

/**
 * Feed indexes this isolate has seen built, by rule key, with how deep they reach: a hint, never
 * an answer (an index page is guarded in SQL by the index's own state). At most 1,000.
 */
const builtIndexes = new Map<string, IndexReach>();
const BUILT_INDEXES_MAX = 1000;
export function rememberIndex(ruleKey: string, st: IndexReach) {
  builtIndexes.delete(ruleKey);
  if (builtIndexes.size >= BUILT_INDEXES_MAX) builtIndexes.delete(builtIndexes.keys().next().value!);
  builtIndexes.set(ruleKey, st);
}
export const knownIndex = (ruleKey: string) => builtIndexes.get(ruleKey);
export const forgetIndex = (ruleKey: string) => void builtIndexes.delete(ruleKey);

/**
 * The built index of a scroll's rule (one scroll row, one index row; none when its rule has no
 * ready index), read beside a lookup of the scroll so that the page after it, in the next round
 * trip, is read from the index even in an isolate that never saw the feed (`learnIndexes`).
 */
export const scrollIndexState = (scrollId: string) =>
  select(
    {
      ruleKey: sql<string>`fi.rule_key`,
      complete: sql<number>`fi.complete`,
      floor: sql<string | null>`fi.floor`,
      floorRank: sql<number | null>`fi.floor_rank`,
      cap: sql<number>`fi.cap`,
    },
    sql`FROM scrolls s JOIN feed_indexes fi ON fi.rule_key = s.rule_key WHERE s.id = ${scrollId} AND fi.state = 'ready'`,
  );
export const learnIndexes = (rows: { ruleKey: string; complete: number; floor: string | null; floorRank: number | null; cap: number }[]) =>
  rows.forEach((row) => rememberIndex(row.ruleKey, reachOf(row)));

/** The time window of a most-liked rule: its matches are at most this old. */
const windowMs = (rule: FeedRule) => (rule.sortBy === "mostLiked" && rule.sortTimeRange !== "allTime" ? TIME_RANGE_MS[rule.sortTimeRange] : null);
/**
 * Windows short enough that a backfill walks them newest first — every match of the last day or
 * month, then keeps the most liked (a likes-ordered walk would read every older echo of the
 * rule's streams first). A year is half the store's age: its likes-ordered walk is dense.
 */
const walksWindow = (rule: FeedRule) => rule.sortBy === "mostLiked" && (rule.sortTimeRange === "1day" || rule.sortTimeRange === "1month");

/**
 * What a new echo must carry for the rule to possibly match it: its author when the rule names
 * authors, else one of its included tags (any-of, less the excluded ones) or the first of them
 * (all-of: a match carries every one); a rule with neither may match any echo (`*`).
 * A most-liked rule's terms start with `l:`: a like reaches only the indexes ordered by likes.
 */
export function ruleTerms(rule: FeedRule): string[] {
  const prefix = rule.sortBy === "mostLiked" ? "l:" : "";
  if (rule.authors.length > 0) return rule.authors.map((a) => `${prefix}a:${a}`);
  const tags = canonicalRule(rule).includedTags;
  if (tags.length === 0) return [`${prefix}*`];
  if (rule.tagMatchType === "all") return tags.slice(0, 1).map((t) => `${prefix}t:${t}`);
  return tags.filter((t) => !rule.excludedTags.includes(t)).map((t) => `${prefix}t:${t}`);
}

const likeTerms = (echo: ChangedEcho) => [...echo.tags.map((t) => `l:t:${t}`), `l:a:${echo.authorId}`, "l:*"];
const echoTerms = (echo: ChangedEcho) => [...echo.tags.map((t) => `t:${t}`), `a:${echo.authorId}`, "*", ...likeTerms(echo)];

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

/** What a batch of changes did: candidate indexes looked at per post and per like, entries written. */
export type Consumed = { posts: number; likes: number; candidates: number; written: number; deleted: number; backfills: number } & Backfilled;
/** What backfill messages did: engine steps run, entries they wrote, indexes they finished. */
export type Backfilled = { steps: number; backfilled: number; finished: number };

type Candidate = { id: number; ruleKey: string; state: "building" | "ready"; complete: boolean; floor: string | null; floorRank: number | null; cap: number; terms: string };
/** The indexes registered under any of `terms`, with their state and frontier. */
const candidatesOf = (terms: string[]) =>
  select(
    {
      id: tables.feedIndexes.id,
      ruleKey: tables.feedIndexes.ruleKey,
      state: tables.feedIndexes.state,
      complete: tables.feedIndexes.complete,
      floor: tables.feedIndexes.floor,
      floorRank: tables.feedIndexes.floorRank,
      cap: tables.feedIndexes.cap,
      terms: sql<string>`json_group_array(ft.term)`,
    },
    sql`FROM feed_rule_terms ft JOIN feed_indexes ON feed_indexes.id = ft.index_id
      WHERE ft.term IN (SELECT value FROM json_each(${JSON.stringify(terms)})) GROUP BY feed_indexes.id`,
  );

/** An index entry to write: (index, rank, echo). */
type Entry = [number, number, string];

/**
 * The consumer: one batch of the change stream. Posts reach only the indexes registered under
 * their tags and author, likes only the most-liked ones; each candidate's rule is tested on the
 * echo (the reference's per-echo checks, which the property test holds equal to the engine).
 * A post enters an index where it stands before the frontier (newest first: always; oldest first:
 * only a complete index; most liked: where the frontier has no like yet). A like reads the echo's
 * count now, so messages in any order, or twice, end in the same entries: the echo stands at its
 * count where it matches and stands before the frontier, and leaves the index otherwise.
 * Deletes remove the echo's entries everywhere. Backfills go on building.
 */
export async function consumeChanges(app: Pick<AppContext, "env" | "ctx">, db: Db, changes: Change[], now = Date.now()): Promise<Consumed> {
  const done: Consumed = { posts: 0, likes: 0, candidates: 0, written: 0, deleted: 0, backfills: 0, steps: 0, backfilled: 0, finished: 0 };
  const posts = changes.flatMap((c) => (c.type === "post" ? [c.echo] : []));
  const deletes = changes.flatMap((c) => (c.type === "delete" ? c.echoIds : []));
  const liked = [...new Set(changes.flatMap((c) => (c.type === "likes" ? c.echoIds : [])))];
  // an edited echo leaves every index and enters those its rule checks pass now (decision 025)
  const edited = [...new Set(changes.flatMap((c) => (c.type === "edit" ? c.echoIds : [])))];
  const inserts: Entry[] = [];
  const moves: Entry[] = [];
  const leaves: [number, string][] = [];
  if (posts.length > 0 || liked.length > 0 || edited.length > 0) {
    const terms = [...new Set(posts.flatMap(echoTerms))];
    const [postCandidates, likedEchos] = await batch(db, [
      candidatesOf(terms),
      select(
        {
          id: tables.echos.id,
          authorId: tables.echos.authorId,
          tags: tables.echos.tags,
          createdAt: tables.echos.createdAt,
          likes: tables.echos.likesCount,
          parentId: tables.echos.parentId,
        },
        sql`FROM echos WHERE id IN (SELECT value FROM json_each(${JSON.stringify([...liked, ...edited])}))`,
      ),
    ]);
    const facts = likedEchos.filter((e) => liked.includes(e.id));
    const editedFacts = likedEchos.filter((e) => edited.includes(e.id));
    const factTerms = [...facts.flatMap(likeTerms), ...editedFacts.flatMap(echoTerms)];
    const [likeCandidates] = factTerms.length > 0 ? await batch(db, [candidatesOf([...new Set(factTerms)])]) : [[]];
    const matching = function* (echo: ChangedEcho, candidates: Candidate[], mine: Set<string>) {
      for (const c of candidates) {
        if (c.cap === DENSE || !(JSON.parse(c.terms) as string[]).some((t) => mine.has(t))) continue;
        done.candidates++;
        yield c;
      }
    };
    for (const echo of posts) {
      const e = { ...echo, likes: 0 };
      for (const c of matching(echo, postCandidates as Candidate[], new Set(echoTerms(echo)))) {
        const rule = ruleOfKey(c.ruleKey);
        if (!ruleChecks(rule, e, false, now).every((check) => check.passed)) continue;
        const reach = reachOf(c);
        if (c.state === "building" || reachesTo(rule, reach, { rank: 0, id: echo.id })) inserts.push([c.id, 0, echo.id]);
      }
    }
    for (const e of facts) {
      for (const c of matching(e, likeCandidates as Candidate[], new Set(likeTerms(e)))) {
        const rule = ruleOfKey(c.ruleKey);
        const at = { rank: e.likes, id: e.id };
        const keep = ruleChecks(rule, e, false, now).every((check) => check.passed) && (c.state === "building" || reachesTo(rule, reachOf(c), at));
        if (keep) moves.push([c.id, e.likes, e.id]);
        else leaves.push([c.id, e.id]);
      }
    }
    for (const e of editedFacts) {
      for (const c of matching(e, likeCandidates as Candidate[], new Set(echoTerms(e)))) {
        const rule = ruleOfKey(c.ruleKey);
        const at = { rank: rule.sortBy === "mostLiked" ? e.likes : 0, id: e.id };
        if (ruleChecks(rule, e, false, now).every((check) => check.passed) && (c.state === "building" || reachesTo(rule, reachOf(c), at))) {
          inserts.push([c.id, at.rank, e.id]);
        }
      }
    }
    done.posts = posts.length;
    done.likes = facts.length;
  }
  const statements: SQL[] = [];
  // first, so that the entries the edited echos earn now are written after it
  if (edited.length > 0) statements.push(sql`DELETE FROM feed_index_entries WHERE echo_id IN (SELECT value FROM json_each(${JSON.stringify(edited)}))`);
  // in statements of at most ENTRIES_PER_STATEMENT (a bound value stays far below D1's 2 MB)
  for (const part of chunks(inserts)) statements.push(insertEntries(part));
  // an entry moves by leaving and entering again at its count (one echo, one entry per index)
  for (const part of chunks([...leaves, ...moves.map(([index, , echo]): [number, string] => [index, echo])])) statements.push(deleteEntries(part));
  for (const part of chunks(moves)) statements.push(insertEntries(part));
  if (deletes.length > 0) statements.push(sql`DELETE FROM feed_index_entries WHERE echo_id IN (SELECT value FROM json_each(${JSON.stringify(deletes)}))`);
  if (statements.length > 0) await batch(db, statements);
  done.written = inserts.length + moves.length;
  done.deleted = deletes.length + leaves.length + edited.length;
  // one step per rule however many of its messages came (a resent one, a repeat)
  const building = [...new Set(changes.flatMap((c) => (c.type === "backfill" ? [c.ruleKey] : [])))];
  done.backfills = building.length;
  const work = async () => {
    for (let key = building.shift(); key !== undefined; key = building.shift()) {
      const next = await backfillStep(db, key, now, done);
      if (next) sendChanges(app, [next]);
      else done.finished++;
    }
  };
  await Promise.all(Array.from({ length: BACKFILL_CONCURRENCY }, work));
  return done;
}

const ENTRIES_PER_STATEMENT = 1000;
const chunks = <T>(list: T[]): T[][] => Array.from({ length: Math.ceil(list.length / ENTRIES_PER_STATEMENT) }, (_, i) => list.slice(i * ENTRIES_PER_STATEMENT, (i + 1) * ENTRIES_PER_STATEMENT));

/** Whether `position` is at or before the index's frontier: an echo standing there belongs in it. */
const reachesTo = (rule: FeedRule, st: IndexReach, position: Position) => st.complete || st.floor === null || !before(rule, st.floor, position);

/** Entries for echos that still exist and are not in that index yet (a repeat writes nothing). */
function insertEntries(entries: Entry[]): SQL {
  // (the entry carries its echo's author, read from the row this statement reads anyway: decision 026)
  return sql`INSERT OR IGNORE INTO feed_index_entries (index_id, rank, echo_id, author_id)
      SELECT json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), e.id, e.author_id FROM json_each(${JSON.stringify(entries)}) j
      CROSS JOIN echos e ON e.id = json_extract(j.value, '$[2]')
      WHERE NOT EXISTS (SELECT 1 FROM feed_index_entries x WHERE x.echo_id = json_extract(j.value, '$[2]') AND x.index_id = json_extract(j.value, '$[0]'))`;
}

/** An echo's entry in an index, whatever its rank. */
function deleteEntries(pairs: [number, string][]): SQL {
  return sql`DELETE FROM feed_index_entries WHERE (echo_id, index_id) IN
      (SELECT json_extract(value, '$[1]'), json_extract(value, '$[0]') FROM json_each(${JSON.stringify(pairs)}))`;
}

/** The walk a backfill takes: the rule's own order, or newest first through its window (walksWindow). */
function walkOf(rule: FeedRule, now: number): FeedRule {
  const w = windowMs(rule);
  if (!walksWindow(rule) || w === null) return rule;
  return { ...rule, sortBy: "newestFirst", sortTimeRange: "allTime", startDate: Math.max(rule.startDate ?? 0, now - w) };
}

/**
 * Build an index a few engine windows further, from where it stopped (its stored cursor: a
 * message delivered twice repeats nothing). A walk in the rule's order is ready when the engine
 * found every match (complete) or the index holds its cap (then its frontier `floor`: every match
 * up to it is in the index, and pages after it come from the engine). The cap is INDEX_CAP,
 * raised to SPARSE_CAP when the walk met matches too thin for a reader's engine window to fill a
 * screen. A walk through a short window (walksWindow) reads all of it, then keeps the SPARSE_CAP
 * most liked. Returns the next message, if any.
 */
export async function backfillStep(db: Db, ruleKey: string, now = Date.now(), tally?: Backfilled): Promise<Change | null> {
  const fi = tables.feedIndexes;
  const [found] = await batch(db, [
    select(
      {
        id: fi.id,
        state: fi.state,
        cursor: fi.cursor,
        cursorRank: fi.cursorRank,
        cap: fi.cap,
        entries: sql<number>`(SELECT count(*) FROM (SELECT 1 FROM feed_index_entries WHERE index_id = feed_indexes.id LIMIT ${SPARSE_CAP}))`,
      },
      sql`FROM feed_indexes WHERE rule_key = ${ruleKey}`,
    ),
  ]);
  const index = found[0];
  if (!index || index.state === "ready") return null;
  const rule = ruleOfKey(ruleKey);
  const walk = walkOf(rule, now);
  const capped = walk === rule;
  const rankOf = (r: FeedMatchRow) => (rule.sortBy === "mostLiked" ? r.likesCount : 0);
  const window = windowSize(walk, BACKFILL_CANDIDATES);
  let seek: Seek = index.cursor && isId(index.cursor) ? { id: index.cursor, likes: index.cursorRank ?? undefined } : null;
  let entries = index.entries;
  let cap = index.cap;
  // the density this walk meets: matches per entry the engine read
  let scanned = 0;
  let matched = 0;
  const started = Date.now();
  for (let step = 0; step < BACKFILL_STEPS && Date.now() - started < BACKFILL_MS; step++) {
    // no more than the cap needs (a dense rule's first step is its whole index), at least a
    // screen's worth past it to measure the density
    const want = capped ? Math.max(SCREEN, Math.min(BACKFILL_PAGE, cap - entries)) : BACKFILL_PAGE;
    const [rows] = await batch(db, [feedMatchQuery(walk, NO_VIEWER, now, seek, want, window)]);
    const fed = feedPage(walk, rows, want, now);
    if (tally) {
      tally.steps++;
      tally.backfilled += fed.rows.length;
    }
    if (fed.rows.length > 0) {
      await batch(db, [insertEntries(fed.rows.map((r) => [index.id, rankOf(r), r.id]))]);
      entries += fed.rows.length;
    }
    const after = fed.after;
    matched += fed.rows.length;
    // where the read stopped in the window (a rule that tests nothing numbers nothing: all match)
    scanned += after?.feedN || fed.rows.length;
    if (!fed.hasMore || after === null) return capped ? markReady(db, rule, index.id, null, now) : keepMostLiked(db, rule, index.id, SPARSE_CAP, now);
    seek = { id: after.id, likes: after.likesCount };
    if (capped && entries >= cap) {
      const thin = matched * readerWindow(rule) < DENSE_MARGIN * SCREEN * scanned;
      // dense: a reader's engine window fills a screen by itself, so the index keeps nothing
      if (cap === INDEX_CAP && !thin) return markDense(db, index.id, now);
      // thin matches: a reader's window would not fill a screen, so the index keeps more
      if (cap < SPARSE_CAP) cap = SPARSE_CAP;
      else return markReady(db, rule, index.id, { rank: rankOf(after), id: after.id }, now);
    }
  }
  await batch(db, [
    sql`UPDATE feed_indexes SET cursor = ${seek?.id ?? null}, cursor_rank = ${seek?.likes ?? null}, cap = ${cap}, updated_at = ${now}
        WHERE id = ${index.id} AND state = 'building'`,
  ]);
  return { type: "backfill", ruleKey, cursor: seek?.id ?? null };
}

/** The entries after a position in the feed's order (SQL over `feed_index_entries`, aliased `alias`). */
function afterPosition(rule: FeedRule, at: Position, alias = "feed_index_entries"): SQL {
  const rank = sql.raw(`${alias}.rank`);
  const echo = sql.raw(`${alias}.echo_id`);
  // oldest first: every rank is 0, and the tuple lets SQLite seek the primary key past it
  return descending(rule) ? sql`(${rank}, ${echo}) < (${at.rank}, ${at.id})` : sql`(${rank}, ${echo}) > (0, ${at.id})`;
}
const orderSql = (rule: FeedRule, alias = "feed_index_entries") =>
  sql.raw(descending(rule) ? `${alias}.rank DESC, ${alias}.echo_id DESC` : `${alias}.rank ASC, ${alias}.echo_id ASC`);

/** Ready: complete, or reaching its frontier `floor` (what a like message or a walk put after it goes). */
async function markReady(db: Db, rule: FeedRule, id: number, floor: Position | null, now: number): Promise<null> {
  await batch(db, [
    ...(floor ? [sql`DELETE FROM feed_index_entries WHERE index_id = ${id} AND ${afterPosition(rule, floor)}`] : []),
    sql`UPDATE feed_indexes SET state = 'ready', complete = ${floor ? 0 : 1}, floor = ${floor?.id ?? null}, floor_rank = ${floor?.rank ?? null},
        cursor = NULL, cursor_rank = NULL, updated_at = ${now}, checked_at = ${now} WHERE id = ${id}`,
  ]);
  return null;
}

/** A dense rule's index: no entries, no terms (no post or like reaches it), ready (pages from the engine). */
async function markDense(db: Db, id: number, now: number): Promise<null> {
  await batch(db, [
    sql`DELETE FROM feed_index_entries WHERE index_id = ${id}`,
    sql`DELETE FROM feed_rule_terms WHERE index_id = ${id}`,
    // never due for the check (nothing to compare; cap 0 keeps it out); judged again after REJUDGE_MS
    sql`UPDATE feed_indexes SET state = 'ready', cap = ${DENSE}, complete = 0, floor = NULL, floor_rank = NULL, cursor = NULL,
        cursor_rank = NULL, updated_at = ${now}, checked_at = ${now} WHERE id = ${id}`,
  ]);
  return null;
}

/** After a walk through a window: the `cap` most liked stay, the cap-th is the frontier. */
async function keepMostLiked(db: Db, rule: FeedRule, id: number, cap: number, now: number): Promise<null> {
  const [cut] = await batch(db, [cutAt(rule, id, cap), sql`UPDATE feed_indexes SET cap = ${cap} WHERE id = ${id}`]);
  return markReady(db, rule, id, cut.length > 1 ? { rank: cut[0]!.rank, id: cut[0]!.echoId } : null, now);
}

/** The index's cap-th entry and the one after it, if any: two rows mean it holds more than it keeps. */
const cutAt = (rule: FeedRule, id: number, cap: number) =>
  select(
    { rank: tables.feedIndexEntries.rank, echoId: tables.feedIndexEntries.echoId },
    sql`FROM feed_index_entries WHERE index_id = ${id} ORDER BY ${orderSql(rule)} LIMIT 2 OFFSET ${cap - 1}`,
  );

// ---------------------------------------------------------------------------------------------
// Reading

/** The index's state for a rule: what a page read from it means at its end. */
export const indexState = (ruleKey: string) =>
  select(
    { state: tables.feedIndexes.state, complete: tables.feedIndexes.complete, floor: tables.feedIndexes.floor, floorRank: tables.feedIndexes.floorRank, cap: tables.feedIndexes.cap },
    sql`FROM feed_indexes WHERE rule_key = ${ruleKey}`,
  );

/** An index page's row: the echo, its entry's rank (where the next page starts), whether it is on
 * the page (`feedOk`: a reader who hides what they liked skips the ones they liked) and, for such
 * a reader's page, its place among the entries read (`feedN`). */
export type IndexRow = EchoRow & { indexRank: number; feedOk: number; feedN: number };

/**
 * Where a short hide-liked page's next page starts at the latest: after its last echo or after
 * this many entries, whichever is later (all of them were read, and none left to show); the
 * scan's own last entry would cost as many rows as the scan, this one costs 12.
 */
export const HIDE_LIKED_STEP = 12;
/** A hide-liked page's largest: a screen's (30 when an echo read 3 rows). */
export const HIDE_LIKED_PAGE_MAX = DEFAULT_LIMIT;
/**
 * Entries a page for a reader who hides what they liked reads at most (decision 020, "Hide-liked
 * readers"), measured in D1's rows read: an entry costs 1, a liked one 1 more (its likes row),
 * for a viewer who hides anyone 1 more (the entry's echo row, for its author); each echo of the
 * page ECHO_ROWS - 2 more than an entry it passed over (its echo, author, the reader's repost
 * and a quote's quoted echo, less the like it does not have and the entry); the lookups about 6.
 * A page stops reading once it holds limit+1; a page short of that read every entry of the scan
 * and also reads the HIDE_LIKED_STEP-th entry (as many rows) as its frontier. So the worst page,
 * short with a page's worth of echos: 2 × 54 + 3 × 21 + 12 + 6 = 189, and for a viewer who hides
 * anyone 3 × 36 + 63 + 18 = 189 (76 and 48 when an echo read 3 rows; decision 027).
 * A reader who liked up to 33 of the next 54 entries gets a full page of 20.
 */
const HIDE_LIKED_ROWS = PAGE_ROW_TARGET - HIDE_LIKED_STEP - 6 - (ECHO_ROWS - 2) * (HIDE_LIKED_PAGE_MAX + 1);
export const HIDE_LIKED_SCAN = Math.floor(HIDE_LIKED_ROWS / 2);
export const HIDE_LIKED_SCAN_HIDING = Math.floor(HIDE_LIKED_ROWS / 3);
/**
 * Entries a page of `limit` echos reads at most for a reader whom anything may hide (issue 32)
 * and who does not hide what they liked (`entries`), and how many of them go on to the hydration
 * at most (`probed`): an entry costs 1 — one by an author the viewer hides no more, its author is
 * on the entry (migration 0035); the others' echo rows are read by the hydration, which tests
 * them there (ECHO_ROWS an echo shown, 1 row one a word or moderation hides: at most PROBE_SPARE
 * of those past the look-ahead); a short page its HIDE_LIKED_STEP-th entry and the lookups. A
 * screen (20): 58 + 3 + 5 × 21 + 24 = 190 — full while 21 of its next 58 entries show, else
 * short with its cursor where it stopped (every entry probed, 2 rows each, was 30 entries).
 */
// (12: the frontier and last-entry reads and the statement's own lookups — measured 193 rows for a
// page of 20 with 6 here, 201 inside the feed's document)
export function filteredScan(limit: number): { entries: number; probed: number } {
  const rows = PAGE_ROW_TARGET - HIDE_LIKED_STEP - 12 - ECHO_ROWS * (limit + 1);
  return { entries: Math.max(limit + 1, rows - PROBE_SPARE), probed: limit + 1 + PROBE_SPARE };
}
/** Entries probed beyond a page's look-ahead: echos a muted word or moderation may hide. */
const PROBE_SPARE = 3;
/** `feedN` of that frontier row, and of the last entry the page could reach (no echo of the page has them). */
const FRONTIER_ROW = -1;
const LAST_ROW = -2;

/**
 * A page from the index: its entries after the cursor in the feed's order (one range of the
 * entries' key), hydrated, up to the index's frontier; a windowed rule's entries that aged out
 * since the last repair pass skipped. Read only when the index is ready and holds this depth
 * (`reaches`, in SQL); otherwise it reads the one feed_indexes row and nothing more. `guard` adds
 * the caller's own condition (the scroll still holds the rule, the viewer may see it). For a
 * reader who hides what they liked, at most HIDE_LIKED_SCAN entries are read: the unliked ones up
 * to the page and, on a short page, the HIDE_LIKED_STEP-th entry as a frontier the next page
 * starts after at the latest (its rows come in no order: `indexPage` sorts them).
 */
export function indexPageQuery(rule: FeedRule, viewerId: string, seek: Seek, limit: number, guard: SQL = sql`1`, now = Date.now()): Select<IndexRow> {
  const key = ruleKeyOf(rule);
  const at = positionOf(rule, seek);
  const w = windowMs(rule);
  const fresh = w === null ? sql`` : sql`AND ie.echo_id >= ${idFloor(now - w)}`;
  // the frontier and "the index reaches the cursor", each in the feed's order
  const desc = descending(rule);
  const upToFrontier = desc ? sql`(ie.rank, ie.echo_id) >= (fi.floor_rank, fi.floor)` : sql`ie.echo_id <= fi.floor`;
  const reachesAt = desc ? sql`(fi.floor_rank, fi.floor) < (${at.rank}, ${at.id})` : sql`fi.floor > ${at.id}`;
  const where = sql`FROM feed_indexes fi JOIN feed_index_entries ie ON ie.index_id = fi.id
      WHERE fi.rule_key = ${key} AND fi.state = 'ready' AND ${afterPosition(rule, at, "ie")}
        AND fi.cap > ${DENSE} AND (fi.complete = 1 OR fi.floor IS NULL OR (${reachesAt} AND ${upToFrontier}))
        AND ${guard} ${fresh}`;
  const entries = sql`${where} ORDER BY ${orderSql(rule, "ie")}`;
  const entriesBackwards = sql`${where} ORDER BY ${orderSql({ ...rule, sortBy: descending(rule) ? "oldestFirst" : "newestFirst" }, "ie")}`;
  // what the viewer does not see (issue 32): authors they hide, moderated authors, muted words —
  // one probe of the entry's echo row, only for a viewer whom anything may hide (`filters`, once
  // per statement); hidden echos leave on the id (no row). `viewerId` is checked by the caller's
  // session (an id), quoted here as the engine quotes it.
  if (!isId(viewerId)) throw new Error("feed index: bad viewer id");
  const viewer = `'${viewerId}'`;
  const filters = sql.raw(viewerFiltersText(viewer));
  const probe = (id: string) => sql.raw(echoVisibleProbeText(viewer, id, "feeds"));
  // the same test on the echo row the hydration reads (alias e): a walked entry's only test but
  // its author's, so an echo that shows reads its row once (decision 026); a frontier row passes
  const shown = sql`(p.ok = 0 OR NOT ${filters} OR ${sql.raw(echoVisibleText(viewer, "e", "feeds"))})`;
  const columns = { ...echoColumns(viewerId, "feeds"), indexRank: sql<number>`p.rank`, feedOk: sql<number>`p.ok`, feedN: sql<number>`p.n` };
  // (`only`: read them only when it holds — a LIMIT of 0 reads nothing)
  const frontier = (only: SQL = sql`1`) =>
    sql`SELECT f.echo_id, f.rank, 0 AS ok, ${FRONTIER_ROW} AS n FROM (SELECT ie.echo_id, ie.rank ${entries} LIMIT CASE WHEN ${only} THEN 1 ELSE 0 END OFFSET ${HIDE_LIKED_STEP - 1}) f`;
  // and the last entry this page could reach (read backwards: a row or two), so that a page
  // whose scan met it says there is nothing more (or that the index's frontier is there)
  const last = (only: SQL = sql`1`) =>
    sql`SELECT z.echo_id, z.rank, 0 AS ok, ${LAST_ROW} AS n FROM (SELECT ie.echo_id, ie.rank ${entriesBackwards} LIMIT CASE WHEN ${only} THEN 1 ELSE 0 END) z`;
  if (!rule.excludeLikedEchos) {
    // A reader whom nothing may hide walks the entries up to the page (CROSS JOIN keeps them the
    // outer loop in the feed's order, so the LIMIT stops the walk). One whom anything may reads
    // at most filteredScan(limit) entries, each probed, up to the page, and a page short of it also its
    // HIDE_LIKED_STEP-th entry and the last one it could reach, as a hide-liked reader's (below):
    // it steps over what it does not show within its rows, and says where the next page starts.
    // (an author the viewer hides is left out on the entry, no probe; the rest are tested on the
    // echo row as the page reads it, `shown`, up to the page: decision 026)
    const scan = filteredScan(limit);
    const walked = sql`SELECT a.echo_id, a.rank, 1 AS ok, 0 AS n FROM (SELECT ie.echo_id, ie.rank, ie.author_id FROM feed_indexes fi CROSS JOIN feed_index_entries ie ON ie.index_id = fi.id
          WHERE fi.rule_key = ${key} AND fi.state = 'ready' AND ${afterPosition(rule, at, "ie")}
            AND fi.cap > ${DENSE} AND (fi.complete = 1 OR fi.floor IS NULL OR (${reachesAt} AND ${upToFrontier}))
            AND ${guard} ${fresh} AND ${sql.raw(moderationEchoVisibleText("ie.echo_id", viewer))}
          ORDER BY ${orderSql(rule, "ie")} LIMIT CASE WHEN ${filters} THEN ${scan.entries} ELSE ${limit + 1} END) a
          WHERE NOT ${filters} OR ${sql.raw(authorVisibleText(viewer, "a.author_id"))} LIMIT CASE WHEN ${filters} THEN ${scan.probed} ELSE ${limit + 1} END`;
    return select(
      columns,
      sql`FROM (SELECT * FROM (${walked}) UNION ALL SELECT * FROM (${frontier(filters)}) UNION ALL SELECT * FROM (${last(filters)}) LIMIT ${scan.probed + 2}) p
        CROSS JOIN echos e ON e.id = p.echo_id JOIN users u ON u.id = e.author_id WHERE ${shown} LIMIT ${limit + 1}`,
    );
  }
  // hide-liked (decision 020, "Hide-liked readers"): the first entries (HIDE_LIKED_SCAN, fewer
  // for a viewer whom anything may hide), as a co-routine the page stops reading once it holds
  // limit+1; an entry the reader liked is left out by an anti-join on the likes primary key
  // (echo_id, user_id), one they may not see by the probe above. No numbering: window
  // functions buffered every entry (about 5 rows an entry). A page short of limit+1 also reads
  // the HIDE_LIKED_STEP-th entry (UNION ALL under a LIMIT stops before its second part when the
  // first filled it).
  const scan = sql`CASE WHEN ${filters} THEN ${HIDE_LIKED_SCAN_HIDING} ELSE ${HIDE_LIKED_SCAN} END`;
  const kept = sql`SELECT s.echo_id, s.rank, 1 AS ok, 0 AS n FROM (SELECT ie.echo_id, ie.rank, ie.author_id ${entries} LIMIT ${scan}) s
      LEFT JOIN likes l ON l.echo_id = s.echo_id AND l.user_id = ${viewerId}
      WHERE l.echo_id IS NULL AND (NOT ${filters} OR (${sql.raw(authorVisibleText(viewer, "s.author_id"))} AND ${probe("s.echo_id")}))
        AND ${sql.raw(moderationEchoVisibleText("s.echo_id", viewer))}
      LIMIT ${limit + 1}`;
  return select(
    columns,
    sql`FROM (SELECT * FROM (${kept}) UNION ALL SELECT * FROM (${frontier()}) UNION ALL SELECT * FROM (${last()}) LIMIT ${limit + 1}) p
      JOIN echos e ON e.id = p.echo_id JOIN users u ON u.id = e.author_id`,
  );
}

/**
 * What an index page's rows mean: the page's echos in the feed's order (at most `take`), where
 * the next page starts when it may be more, and whether the page stopped short at the index's
 * frontier (`atFrontier`: the engine goes on from there) or at the entries a hide-liked reader's
 * page may read (`after`).
 */
export function indexPage(rule: FeedRule, rows: IndexRow[], take: number, st: IndexReach): { rows: IndexRow[]; full: boolean; after: Position | null; atFrontier: boolean } {
  const pos = (r: IndexRow): Position => ({ rank: r.indexRank, id: r.id });
  const inOrder = [...rows].sort((a, b) => (before(rule, pos(a), pos(b)) ? -1 : before(rule, pos(b), pos(a)) ? 1 : 0));
  const matches = inOrder.filter((r) => r.feedOk);
  if (matches.length > take) return { rows: matches.slice(0, take), full: true, after: pos(matches[take - 1]!), atFrontier: false };
  // a short hide-liked page: every entry of its scan was read; the next page starts after its
  // last echo or the frontier row, whichever comes later. Without a frontier row the index
  // holds fewer entries than HIDE_LIKED_STEP here: the scan read them all.
  const step = inOrder.find((r) => r.feedN === FRONTIER_ROW);
  const end = inOrder.find((r) => r.feedN === LAST_ROW);
  if (step) {
    const last = matches[matches.length - 1];
    const after = last && before(rule, pos(step), pos(last)) ? pos(last) : pos(step);
    // unless the scan met the last entry it could reach: then as a page that read them all
    if (!end || before(rule, after, pos(end))) return { rows: matches, full: false, after, atFrontier: false };
  }
  const atFrontier = !st.complete && st.floor !== null;
  return { rows: matches, full: false, after: atFrontier ? st.floor : null, atFrontier };
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
/**
 * A dense rule is judged again this long after it was last judged (its backfill's first 500
 * matches decided it; a tag's company changes), up to REJUDGE_PER_PASS a pass: when a reader's
 * engine window no longer fills a screen, it is built again as a sparse index.
 */
const REJUDGE_MS = 86_400_000;
const REJUDGE_PER_PASS = 5;

export type Repaired = {
  keyed: number;
  resumed: number;
  replayed: number;
  checked: number;
  added: number;
  removed: number;
  trimmed: number;
  dropped: number;
  aged: number;
  rebuilt: number;
  /** dense rules judged again, and those of them rebuilt as sparse */
  rejudged: number;
  thinned: number;
  /** entries the rank sweep looked at, and the echos it found out of step (lost like or delete messages) */
  swept: number;
  resynced: number;
  /** echos whose like count moved since the last pass, sent through the consumer again (relayLikes) */
  relayed: number;
};

/** Feeds keyed per pass (FEED_INDEX_KEYS_PER_PASS overrides: `npm run bench:data` keys a whole store). */
const KEYS_PER_PASS = 50;
/**
 * Each pass removes from windowed indexes the entries that left their window since about the pass
 * before: echos created in the AGE_BAND before the window's start (the cron runs every 5 minutes;
 * the band leaves room for a late pass). A page skips aged entries itself, so this only keeps
 * the index small and finds the indexes that drained.
 */
const AGE_BAND = 15 * 60_000;
/**
 * The replay: each pass runs the echos posted since the last pass (up to REPLAY_MAX, oldest first,
 * all but the last REPLAY_LAG — the stream's own delay) through the consumer again, as if their
 * messages came twice, and removes entries of echos deleted in that range. A lost post message is
 * found however many matches bury it; the cost is reading every post's candidates twice.
 */
const REPLAY_MAX = 1000;
const REPLAY_LAG = 10_000;
/** Where the replay starts when it never ran: this long ago. */
const REPLAY_FIRST = 15 * 60_000;

/**
 * One repair pass, bounded: existing feeds without a key get their index; stuck backfills are
 * sent again (from their stored cursor); windowed indexes lose the entries that aged out, and one
 * that kept fewer than DRAINED entries while matches may lie past its frontier is built again;
 * the indexes checked longest ago are compared with the engine over their first REPAIR_DEPTH
 * matches — what is missing is written, what should not be there (an echo deleted while its
 * message was lost, a like count that moved) is fixed — and trimmed back to their cap;
 * indexes no scroll reads any more are dropped.
 */
export async function repairIndexes(
  app: Pick<AppContext, "env" | "ctx">,
  db: Db,
  now = Date.now(),
  indexes = REPAIR_INDEXES,
  keys = KEYS_PER_PASS,
  moved: readonly string[] = [],
): Promise<Repaired> {
  const done: Repaired = { keyed: 0, resumed: 0, replayed: 0, checked: 0, added: 0, removed: 0, trimmed: 0, dropped: 0, aged: 0, rebuilt: 0, rejudged: 0, thinned: 0, swept: 0, resynced: 0, relayed: 0 };
  done.replayed = await replayPosts(app, db, now);
  done.relayed = await relayLikes(app, db, moved, now);
  Object.assign(done, await sweepRanks(app, db, now));
  const sc = tables.scrolls;
  const fi = tables.feedIndexes;
  const aging = (["1day", "1month", "1year"] as const).map((range) => {
    const start = now - TIME_RANGE_MS[range];
    return sql`DELETE FROM feed_index_entries WHERE echo_id >= ${idFloor(start - AGE_BAND)} AND echo_id < ${idFloor(start)}
      AND index_id IN (SELECT id FROM feed_indexes WHERE rule_key LIKE ${`%"sortBy":"mostLiked","sortTimeRange":"${range}"%`})
      RETURNING index_id`;
  });
  const [unkeyed, stuck, due, orphans, dense, ...aged] = await batch(db, [
    select({ id: sc.id, ...ruleColumns(sc) }, sql`FROM scrolls WHERE type = 'feed' AND rule_key IS NULL LIMIT ${keys}`),
    select({ ruleKey: fi.ruleKey }, sql`FROM feed_indexes WHERE state = 'building' AND updated_at < ${now - STUCK_MS} LIMIT 20`),
    select({ id: fi.id, ruleKey: fi.ruleKey, complete: fi.complete, floor: fi.floor, floorRank: fi.floorRank, cap: fi.cap }, sql`FROM feed_indexes WHERE state = 'ready' AND cap > ${DENSE} ORDER BY checked_at LIMIT ${indexes}`),
    select({ id: fi.id }, sql`FROM feed_indexes WHERE NOT EXISTS (SELECT 1 FROM scrolls WHERE rule_key = feed_indexes.rule_key) LIMIT 5`),
    // dense rules judged longest ago (those marked before judging again existed carry the largest time)
    select(
      { id: fi.id, ruleKey: fi.ruleKey },
      sql`FROM feed_indexes WHERE state = 'ready' AND cap = ${DENSE} AND (checked_at < ${now - REJUDGE_MS} OR checked_at = ${Number.MAX_SAFE_INTEGER})
        ORDER BY checked_at LIMIT ${REJUDGE_PER_PASS}`,
    ),
    ...aging,
  ]);
  const backfills: Change[] = [];
  const keying: SQL[] = [];
  for (const row of unkeyed) {
    const rule = toRule(row);
    const key = indexKeyOf(rule);
    keying.push(sql`UPDATE scrolls SET rule_key = ${key} WHERE id = ${row.id}`, ...indexStatements(rule, sql`1`, now));
    if (key) backfills.push({ type: "backfill", ruleKey: key, cursor: null });
  }
  if (keying.length > 0) await batch(db, keying);
  done.keyed = unkeyed.length;
  for (const { ruleKey } of stuck) backfills.push({ type: "backfill", ruleKey, cursor: null });
  done.resumed = stuck.length;
  // drained: an incomplete windowed index that kept fewer than half its entries is built again
  // (its frontier can only fall by walking the window once more); pages read the engine meanwhile
  const touched = [...new Set(aged.flat().map((r) => (r as { index_id: number }).index_id))];
  done.aged = aged.reduce((n, rows) => n + rows.length, 0);
  if (touched.length > 0) {
    const [drained] = await batch(db, [
      sql`UPDATE feed_indexes SET state = 'building', cursor = NULL, cursor_rank = NULL, complete = 0, floor = NULL, floor_rank = NULL, updated_at = ${now}
        WHERE id IN (SELECT value FROM json_each(${JSON.stringify(touched)})) AND state = 'ready' AND complete = 0
          AND (SELECT count(*) FROM (SELECT 1 FROM feed_index_entries WHERE index_id = feed_indexes.id LIMIT ${DRAINED})) < ${DRAINED}
        RETURNING rule_key`,
    ]);
    for (const r of drained as { rule_key: string }[]) backfills.push({ type: "backfill", ruleKey: r.rule_key, cursor: null });
    done.rebuilt = drained.length;
  }
  for (const index of dense) {
    done.rejudged++;
    if (await judgeDense(db, index, now)) {
      done.thinned++;
      backfills.push({ type: "backfill", ruleKey: index.ruleKey, cursor: null });
    }
  }
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

/**
 * A dense rule judged again: a reader's engine window, from the top, must still fill a screen
 * (or find every match). If it does not, the index is built again as a sparse one (its terms
 * back, so posts reach it while it builds; pages read the engine meanwhile). True when rebuilt.
 */
async function judgeDense(db: Db, index: { id: number; ruleKey: string }, now: number): Promise<boolean> {
  const rule = ruleOfKey(index.ruleKey);
  const window = readerWindow(rule);
  const [rows] = await batch(db, [feedMatchQuery(rule, NO_VIEWER, now, null, SCREEN, window)]);
  const fed = feedPage(rule, rows, SCREEN);
  if (fed.rows.length >= SCREEN || !fed.hasMore) {
    await batch(db, [sql`UPDATE feed_indexes SET checked_at = ${now} WHERE id = ${index.id}`]);
    return false;
  }
  await batch(db, [
    sql`INSERT OR IGNORE INTO feed_rule_terms (term, index_id) SELECT value, ${index.id} FROM json_each(${JSON.stringify(ruleTerms(rule))})`,
    sql`UPDATE feed_indexes SET state = 'building', cap = ${SPARSE_CAP}, complete = 0, floor = NULL, floor_rank = NULL, cursor = NULL,
        cursor_rank = NULL, updated_at = ${now}, checked_at = ${now} WHERE id = ${index.id} AND cap = ${DENSE}`,
  ]);
  return true;
}

/**
 * The rank sweep: lost like messages. A like's message only says "this echo's count moved"; lost,
 * the echo stands at its old count in the most-liked indexes (the check compares only their first
 * REPAIR_DEPTH matches). Each pass walks the next RANK_SWEEP entries of all indexes in echo order
 * (the entries' echo index, from the stats marker `feed_index_rank_swept_to`, an id's time, back
 * to the start past the last) and sends each echo whose entry's rank is not its like count now
 * — or whose echo is gone — through the consumer again, as a repeated `likes` (`delete`) message
 * would: it moves, enters or leaves every index it belongs to. A whole 0.1 store's 2.4 M entries
 * take about 1,200 passes (4 days at one pass per 5 minutes): a lost like near the top is the
 * check's, deeper ones the sweep's.
 */
const RANK_SWEEP = 2000;
async function sweepRanks(app: Pick<AppContext, "env" | "ctx">, db: Db, now: number): Promise<{ swept: number; resynced: number }> {
  const [marker] = await batch(db, [select({ value: tables.stats.value }, sql`FROM stats WHERE key = 'feed_index_rank_swept_to'`)]);
  const from = idFloor(marker[0]?.value ?? 0);
  const [walked] = await batch(db, [
    select(
      {
        echoId: sql<string>`w.echo_id`,
        gone: sql<number>`e.id IS NULL`,
        stale: sql<number>`fi.rule_key LIKE '%"sortBy":"mostLiked"%' AND w.rank <> coalesce(e.likes_count, -1)`,
      },
      sql`FROM (SELECT echo_id, index_id, rank FROM feed_index_entries INDEXED BY feed_index_entries_echo WHERE echo_id >= ${from} ORDER BY echo_id LIMIT ${RANK_SWEEP}) w
        JOIN feed_indexes fi ON fi.id = w.index_id LEFT JOIN echos e ON e.id = w.echo_id`,
    ),
  ]);
  const gone = [...new Set(walked.filter((r) => r.gone).map((r) => r.echoId))];
  const moved = [...new Set(walked.filter((r) => !r.gone && r.stale).map((r) => r.echoId))];
  const changes: Change[] = [];
  if (gone.length > 0) changes.push({ type: "delete", echoIds: gone });
  for (let i = 0; i < moved.length; i += 100) changes.push({ type: "likes", echoIds: moved.slice(i, i + 100) });
  for (const change of changes) await consumeChanges(app, db, [change], now);
  // on from the last echo walked (its other entries are walked again: an echo's entries share its
  // id), or from the start once the walk found fewer than a sweep's worth
  // (a millisecond holding more than a sweep's worth of entries is stepped over)
  const last = walked.reduce((max, r) => (r.echoId > max ? r.echoId : max), "");
  const at = marker[0]?.value ?? 0;
  const next = walked.length < RANK_SWEEP ? 0 : idTime(last) > at ? idTime(last) : idTime(last) + 1;
  await batch(db, [sql`INSERT INTO stats (key, value) VALUES ('feed_index_rank_swept_to', ${next}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`]);
  return { swept: walked.length, resynced: gone.length + moved.length };
}

/**
 * The likes' replay: the echos whose like count moved since the last pass (the ranking pass's
 * change log, `rank_dirty`, which the likes triggers fill in the like's own batch) go through the
 * consumer again as a repeated `likes` message, up to REPLAY_MAX a pass. The rank sweep walks only
 * the entries an index holds: a lost like that should lift an echo INTO a capped most-liked index
 * (above its frontier) left no entry to find, and only the check of the top REPAIR_DEPTH saw it.
 * Costs reading every liked echo's candidate indexes twice, as the posts' replay does.
 */
async function relayLikes(app: Pick<AppContext, "env" | "ctx">, db: Db, moved: readonly string[], now: number): Promise<number> {
  const echoIds = [...new Set(moved)].slice(0, REPLAY_MAX);
  for (let i = 0; i < echoIds.length; i += 100) await consumeChanges(app, db, [{ type: "likes", echoIds: echoIds.slice(i, i + 100) }], now);
  return echoIds.length;
}

/** The replay (REPLAY_MAX): the posts since its marker (`stats` row `feed_index_replayed_to`, ms) through the consumer again. */
async function replayPosts(app: Pick<AppContext, "env" | "ctx">, db: Db, now: number): Promise<number> {
  const [marker] = await batch(db, [select({ value: tables.stats.value }, sql`FROM stats WHERE key = 'feed_index_replayed_to'`)]);
  const from = marker[0]?.value ?? now - REPLAY_FIRST;
  const to = now - REPLAY_LAG;
  if (from >= to) return 0;
  const e = tables.echos;
  const [posted] = await batch(db, [
    select(
      { id: e.id, authorId: e.authorId, tags: e.tags, createdAt: e.createdAt, parentId: e.parentId },
      sql`FROM echos WHERE id >= ${idFloor(from)} AND id < ${idFloor(to)} ORDER BY id LIMIT ${REPLAY_MAX}`,
    ),
  ]);
  // in batches the size of a queue consumer's (100 messages)
  for (let i = 0; i < posted.length; i += 100) {
    await consumeChanges(app, db, posted.slice(i, i + 100).map((echo): Change => ({ type: "post", echo })), now);
  }
  // up to the last replayed (the next pass goes on from there), or all of the range
  const reached = posted.length === REPLAY_MAX ? Math.max(idTime(posted[posted.length - 1]!.id), from + 1) : to;
  await batch(db, [
    // entries of echos deleted in the replayed range whose delete message was lost
    sql`DELETE FROM feed_index_entries WHERE echo_id >= ${idFloor(from)} AND echo_id < ${idFloor(reached)}
        AND NOT EXISTS (SELECT 1 FROM echos WHERE echos.id = feed_index_entries.echo_id)`,
    sql`INSERT INTO stats (key, value) VALUES ('feed_index_replayed_to', ${reached}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ]);
  return posted.length;
}

/**
 * Compare one index's first entries with the engine's first matches, in the feed's order, over
 * the range both reached (not past the index's frontier): what is missing, or stands at another
 * like count, is written; what should not be there is removed; then it is trimmed to its cap.
 */
async function checkIndex(db: Db, index: { id: number; ruleKey: string; complete: boolean; floor: string | null; floorRank: number | null; cap: number }, now: number) {
  const rule = ruleOfKey(index.ruleKey);
  const window = windowSize(rule, REPAIR_CANDIDATES);
  const ie = tables.feedIndexEntries;
  const [rows, held] = await batch(db, [
    feedMatchQuery(rule, NO_VIEWER, now, null, REPAIR_DEPTH, window),
    select({ echoId: ie.echoId, rank: ie.rank }, sql`FROM feed_index_entries WHERE index_id = ${index.id} ORDER BY ${orderSql(rule)} LIMIT ${REPAIR_DEPTH + 1}`),
  ]);
  const fed = feedPage(rule, rows, REPAIR_DEPTH);
  const rankOf = (r: FeedMatchRow) => (rule.sortBy === "mostLiked" ? r.likesCount : 0);
  // the compared range: from the top to where the engine's read ended (all of it when it found
  // every match), to the index's frontier, and to the last of the entries read
  const ends: Position[] = [];
  if (fed.hasMore && fed.after) ends.push({ rank: rankOf(fed.after), id: fed.after.id });
  const reach = reachOf(index);
  if (!reach.complete && reach.floor) ends.push(reach.floor);
  if (held.length > REPAIR_DEPTH) ends.push({ rank: held[REPAIR_DEPTH - 1]!.rank, id: held[REPAIR_DEPTH - 1]!.echoId });
  const within = (p: Position) => ends.every((end) => !before(rule, end, p));
  const should = new Map(fed.rows.map((r) => [r.id, rankOf(r)] as const).filter(([id, rank]) => within({ rank, id })));
  const has = new Map(held.map((h) => [h.echoId, h.rank] as const).filter(([id, rank]) => within({ rank, id })));
  const missing: Entry[] = [...should].filter(([id, rank]) => has.get(id) !== rank).map(([id, rank]) => [index.id, rank, id]);
  const extra = [...has.keys()].filter((id) => !should.has(id));
  const statements: SQL[] = [];
  const leaving = [...extra, ...missing.map(([, , id]) => id)].map((id): [number, string] => [index.id, id]);
  if (leaving.length > 0) statements.push(deleteEntries(leaving));
  if (missing.length > 0) statements.push(insertEntries(missing));
  if (statements.length > 0) await batch(db, statements);
  // back to its cap: the frontier moves up to the last kept, and the index is no longer complete
  const [cut] = await batch(db, [cutAt(rule, index.id, index.cap)]);
  const trimmed = cut.length > 1;
  if (trimmed) await markReady(db, rule, index.id, { rank: cut[0]!.rank, id: cut[0]!.echoId }, now);
  else await batch(db, [sql`UPDATE feed_indexes SET checked_at = ${now} WHERE id = ${index.id}`]);
  return { added: missing.length, removed: extra.length, trimmed: trimmed ? 1 : 0 };
}
