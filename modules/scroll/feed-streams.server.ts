// The feed rules engine's plan (feed-rules.server.ts is the engine): a stored rule → the ordered
// streams its candidates come from, each one SQL part, and the window of candidates a page reads.
//
// Plan (docs/decisions/008-feed-engine.md): the rows come from index streams that are already in
// the feed's order — one stream per included tag (any-of), the rarest included tag (all-of), one
// stream per author, or the echos table when the rule names neither. Several streams are joined
// with a compound `UNION … ORDER BY … LIMIT`, which SQLite runs as a merge of ordered co-routines:
// it stops once the page is full, so a page reads about (page + streams + rejected candidates)
// rows whatever the depth. Tag tests on a candidate look inside its own JSON array of validated
// tag names (`echos.tags`, copied onto each tag link and covered by the tag indexes) instead of
// probing other rows, so a rejected candidate costs the one index entry that found it.
//
// Rule values are written into the statement as SQL literals (escaped by `lit`), not bound: one
// statement may repeat a value in 25 streams, and D1 binds at most 100 parameters. Every value is
// also validated where the rule is saved (tags, ids) or read (cursor).
import { candidateRowsFor, DEFAULT_LIMIT, ECHO_ROWS, idCeil, idFloor, isId, LIST_MAX_LIMIT } from "../shared/index";
import { authorVisibleInText, authorVisibleText, deletedAccountsVisibleText, entryVisibleText, lit, moderationEchoVisibleText } from "../shared/index.server";
import { TIME_RANGE_MS, type FeedRule } from "./schema";

export type Seek = { id: string; likes?: number } | null;

/** The viewer of the canonical rule (the feed index's backfill and repair): hides
 * nothing, so the index holds every match and its pages test each reader's own. */
export const NOBODY = "0".repeat(26);

/** D1's limit on the terms of one compound SELECT; two levels serve the 25 tags or authors a
 * rule may name (MAX_RULE_TAGS, MAX_RULE_AUTHORS). */
export const MAX_COMPOUND = 5;

export { lit };
export const int = (value: number) => {
  if (!Number.isSafeInteger(value)) throw new Error("feed engine: not an integer");
  return String(value);
};
/** Whether a candidate carries a tag: its JSON array of tags (`tags`, on the echo row or copied
 * on the tag link) holds the name in double quotes. */
const hasTagIn = (tags: string, tag: string) => `instr(${tags}, ${lit(JSON.stringify(tag))}) > 0`;

/** One ordered stream of candidates: where it reads, the columns that order it, where the
 * candidate's tags are (a tag stream reads only its covering index) and, for a rule without
 * replies, the test that the candidate is not one (null: the stream holds none). */
// `author`: the entry's author, read with it (an echos row, or a tag link's copy: migration 0035)
// `named`: an author stream's author, as a literal (a viewer who hides them reads nothing of it)
type Stream = { from: string; key: string[]; id: string; likes: string; tags: string; author: string; notReply: string | null; earlier?: string[]; named?: string };

export function streams(rule: FeedRule): Stream[] {
  const byLikes = rule.sortBy === "mostLiked";
  // replies (decision 024): off unless the rule says so; a reply stays one, so the test never moves
  const noReplies = rule.replies !== true;
  if (rule.authors.length > 0) {
    // an author's echos: (author_id, id) or (author_id, likes_count, id); "not a reply" is
    // tested on the echo row (its tags are tested there too)
    const index = byLikes ? "echos_author_likes" : "echos_author_id";
    return rule.authors.map((a) => ({
      from: `echos e INDEXED BY ${index}`,
      key: [`e.author_id = ${lit(a)}`],
      named: lit(a),
      id: "e.id",
      likes: "e.likes_count",
      tags: "e.tags",
      author: "e.author_id",
      notReply: noReplies ? "e.parent_id IS NULL" : null,
    }));
  }
  const tagStream = (tagExpr: string): Stream => ({
    // covering indexes: (tag, echo_id, tags) and (tag, likes_count, echo_id, tags); without
    // replies their partial copies of top-level echos, so replies cost no read and no test
    from: `echo_tags d INDEXED BY ${noReplies ? (byLikes ? "echo_tags_top_likes" : "echo_tags_top_echo") : byLikes ? "echo_tags_tag_likes_tags" : "echo_tags_tag_echo"}`,
    key: [`d.tag = ${tagExpr}`, ...(noReplies ? ["d.reply = 0"] : [])],
    id: "d.echo_id",
    likes: "d.likes_count",
    tags: "d.tags",
    author: "d.author_id",
    notReply: null,
  });
  if (rule.includedTags.length > 0 && rule.tagMatchType === "all") {
    // the rarest included tag drives (tag counters are exact; a tag no echo carries counts 0,
    // so its empty stream drives); the others are tested on the row
    const names = rule.includedTags.map((t) => `(${lit(t)})`).join(", ");
    return [
      tagStream(`(SELECT v.column1 FROM (VALUES ${names}) v LEFT JOIN tags t ON t.name = v.column1 ORDER BY coalesce(t.echo_count, 0), v.column1 LIMIT 1)`),
    ];
  }
  // any-of: a tag that is also excluded cannot contribute. An echo that carries two of the tags is
  // in two streams, side by side in the merge: only its first stream's copy is a match (`earlier`),
  // the other a miss — counted as both (an any-of-10-tags feed answered 16–19 echos a page past
  // its index's frontier: each copy cost the page an echo)
  if (rule.includedTags.length > 0) {
    const contributing = rule.includedTags.filter((t) => !rule.excludedTags.includes(t));
    return contributing.map((t, i) => ({ ...tagStream(lit(t)), earlier: contributing.slice(0, i) }));
  }
  // no tag or author: without replies, the partial indexes of top-level echos (every entry matches)
  if (noReplies) {
    const index = byLikes ? "echos_top_likes" : "echos_top";
    return [{ from: `echos e INDEXED BY ${index}`, key: ["e.parent_id IS NULL"], id: "e.id", likes: "e.likes_count", tags: "e.tags", author: "e.author_id", notReply: null }];
  }
  return [{ from: byLikes ? "echos e INDEXED BY echos_likes" : "echos e", key: [], id: "e.id", likes: "e.likes_count", tags: "e.tags", author: "e.author_id", notReply: null }];
}

/**
 * Whether the viewer hides any (`every`: every) author the rule names, as SQL: the viewer's set
 * read once (an expression over its one row), 0 without a set or a named author.
 */
export function namedHiddenText(rule: FeedRule, viewerId: string, every = false): string {
  if (rule.authors.length === 0) return "0";
  const v = lit(viewerId);
  const hidden = rule.authors.map((a) => `NOT (${authorVisibleInText("h.authors", lit(a))})`);
  return `ifnull((SELECT ${hidden.join(every ? " AND " : " OR ")} FROM hidden_authors h WHERE h.user_id = ${v}), 0)`;
}

/** The bounds on id: the rule's dates and, for most-liked over a window, the window. */
export function idBounds(rule: FeedRule, now: number): { from: number | null; to: number | null } {
  let from = rule.startDate;
  if (rule.sortBy === "mostLiked" && rule.sortTimeRange !== "allTime") {
    const windowStart = now - TIME_RANGE_MS[rule.sortTimeRange];
    from = from === null ? windowStart : Math.max(from, windowStart);
  }
  return { from, to: rule.endDate };
}

/**
 * Whether the rule can match nothing, whatever the store holds: its dates (with the time window)
 * leave no time, or its included tags are all excluded (any-of) or one of them is (all-of).
 * Such a feed is answered without reading (docs/decisions/010-feed-budget-for-every-feed.md).
 */
export function provablyEmpty(rule: FeedRule, now: number): boolean {
  const { from, to } = idBounds(rule, now);
  if (from !== null && (from > now || (to !== null && from > to))) return true;
  const excluded = (t: string) => rule.excludedTags.includes(t);
  if (rule.includedTags.length === 0) return false;
  return rule.tagMatchType === "all" ? rule.includedTags.some(excluded) : rule.includedTags.every(excluded);
}

/** Tag conditions on a candidate (its stream's `tags`), beyond what the stream implies. */
function rowConditions(rule: FeedRule, s: Stream): string[] {
  const hasTag = (tag: string) => hasTagIn(s.tags, tag);
  const where: string[] = [];
  const authorDriven = rule.authors.length > 0;
  if (rule.includedTags.length > 0) {
    if (rule.tagMatchType === "all") where.push(...rule.includedTags.map(hasTag));
    else if (authorDriven) where.push(`(${rule.includedTags.map(hasTag).join(" OR ")})`);
  }
  where.push(...rule.excludedTags.map((t) => `NOT ${hasTag(t)}`));
  // (tested on the covering index's copy of the tags: no row more)
  where.push(...(s.earlier ?? []).map((t) => `NOT ${hasTag(t)}`));
  if (s.notReply !== null) where.push(s.notReply);
  return where;
}

/** Whether a candidate's tests read its echo row (an echos-table stream that tests anything):
 * one more row an entry. */
export const testsOnEchoRow = (rule: FeedRule): boolean => {
  const first = streams(rule)[0];
  return first !== undefined && first.tags === "e.tags" && rowConditions(rule, first).length > 0;
};

export function orderBy(rule: FeedRule, id: string, likes: string): string {
  if (rule.sortBy === "oldestFirst") return `${id} ASC`;
  if (rule.sortBy === "mostLiked") return `${likes} DESC, ${id} DESC`;
  return `${id} DESC`;
}

/** Rows a screen's page (20) may spend on candidates (index entries in the window), whatever the
 * rule: the rest of the budget hydrates the page (5 rows an echo at worst: a quote the viewer
 * liked and reposted) and reads the scroll. 110 when an echo read 3 (decision 010); 75 since
 * reposts and quotes (decision 027, "Pages sized by rows per echo"). A larger page gets less
 * (pageCandidateRows). */
export const CANDIDATE_ROWS = candidateRowsFor(DEFAULT_LIMIT);
/**
 * The candidate rows of a page of `limit` echos: CANDIDATE_ROWS, less what an API page larger
 * than a screen's hydrates more (up to a scroll's largest page). A page larger still (a web
 * feed's 50, read as nobody: no like or repost probes) hydrates at most the window's matches.
 */
export const pageCandidateRows = (limit: number, candidateRows = CANDIDATE_ROWS): number =>
  Math.max(1, candidateRows - (Math.min(Math.max(limit, DEFAULT_LIMIT), LIST_MAX_LIMIT.scrollEchos) - DEFAULT_LIMIT) * ECHO_ROWS);

/** One stream's part of the merge: its entries in feed order, each marked with whether it
 * matches the rule. What the index range can seek (the stream's key, the cursor, and the id
 * bounds when the stream is in id order) bounds the scan; every other test only marks the entry,
 * so that a LIMIT over the merge counts entries read, not matches. */
export function streamPart(rule: FeedRule, s: Stream, viewerId: string, now: number, seek: Seek, gate: string | null = null, entryTestedAfter = false): { sql: string; tested: boolean } {
  const { from, to } = idBounds(rule, now);
  // `gate` (a viewer believed to hide anyone, feed-viewer.server.ts: "1", or a condition the
  // stream is read under): an author stream seeks its author only while the viewer sees them —
  // the key is NULL otherwise, so the stream reads no entry (the set's row, evaluated once as the
  // seek starts), where each of a hidden author's entries cost its entry and echo row to be
  // stepped over (issue 32: a feed naming authors the viewer blocks walked them, empty pages)
  const seekable = gate !== null && s.named !== undefined && viewerId !== NOBODY
    ? [`e.author_id = (CASE WHEN ${gate === "1" ? "" : `${gate} AND `}${authorVisibleText(lit(viewerId), s.named)} THEN ${s.named} END)`]
    : [...s.key];
  const tests = rowConditions(rule, s);
  if (seek && !isId(seek.id)) throw new Error("feed engine: bad cursor id");
  let low = from === null ? null : `${s.id} >= ${lit(idFloor(from))}`;
  let high = to === null ? null : `${s.id} <= ${lit(idCeil(to))}`;
  if (rule.sortBy === "mostLiked") {
    // the likes-ordered index cannot seek by id: the dates only mark the entry
    tests.push(...[low, high].filter((b) => b !== null));
    if (seek) seekable.push(`(${s.likes}, ${s.id}) < (${int(seek.likes ?? 0)}, ${lit(seek.id)})`);
  } else {
    // the cursor replaces the date bound on its side when it is tighter: SQLite seeks one bound
    // per side, and testing the other on every entry would read the pages already served
    if (seek && rule.sortBy === "oldestFirst" && (from === null || seek.id >= idFloor(from))) low = `${s.id} > ${lit(seek.id)}`;
    if (seek && rule.sortBy === "newestFirst" && (to === null || seek.id <= idCeil(to))) high = `${s.id} < ${lit(seek.id)}`;
    seekable.push(...[low, high].filter((b) => b !== null));
  }
  if (rule.excludeLikedEchos) tests.push(`NOT EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = ${s.id} AND l.user_id = ${lit(viewerId)})`);
  // the authors the viewer does not see (issue 32, decision 026) and moderation (decision 029) are
  // tested after the merge on the entry's author (`au`: a tag link's copy, migration 0035) and id,
  // no row, for a viewer whom anything may hide; muted words (decision 028) by a probe of the echo
  // row, for a viewer who mutes any, bounded by the page's window or scan (feedPageQuery). Here
  // only what costs no read: a hidden echo (its id is at hand) leaves every stream — unless the
  // caller tests every entry it keeps after the merge (`entryTestedAfter`: a hiding viewer's scan,
  // whose entry test holds the echo's moderation entry too — one read of the moderation row for
  // the statement, not one for each stream's copy); an author or echos-table stream with tests
  // also marks its hidden authors' entries as misses (the row is read for the tests anyway).
  if (!entryTestedAfter || viewerId === NOBODY) seekable.push(viewerId === NOBODY ? moderationEchoVisibleText(s.id) : moderationEchoVisibleText(s.id, lit(viewerId)));
  // a deleted account's echos (decision 032) leave at once: a viewer's test of the entry's author
  // (moderation) drops them; for no viewer (web feeds, the index's backfill) the author is tested
  // here, on the entry (a tag link carries it: no row), only while an account is being purged
  if (viewerId === NOBODY) seekable.push(deletedAccountsVisibleText(s.author));
  if (s.tags === "e.tags" && tests.length > 0 && viewerId !== NOBODY) tests.push(entryVisibleText(lit(viewerId), "e.author_id", s.id));
  const ok = tests.length ? `(${tests.join(" AND ")})` : "1";
  // the like count only orders most-liked rules; elsewhere reading it would leave the index
  const lk = rule.sortBy === "mostLiked" ? s.likes : "0";
  return { sql: `SELECT ${s.id} AS id, ${lk} AS lk, ${ok} AS ok, ${s.author} AS au FROM ${s.from} WHERE ${seekable.join(" AND ") || "1"}`, tested: tests.length > 0 };
}

/**
 * The window: how many index entries, merged in feed order, one page may look at. Measured
 * per entry: 1 row for the index entry and 2 for numbering it (SQLite's window functions buffer
 * each row), 1 more for the second merge level (6–25 streams), for the hide-liked probe, and for
 * the echo row of an echos-table stream whose tags are tested. Besides: 1 look-ahead per
 * stream, and for all-of, choosing the rarest tag (its `tags` rows, sorted).
 */
export function windowSize(rule: FeedRule, candidateRows = CANDIDATE_ROWS, probing = false): number {
  const list = streams(rule);
  if (list.length === 0) return 1; // provably empty: nothing is read
  const tagTestOnEcho = testsOnEchoRow(rule);
  // `probing`: the window of a viewer whom anything may hide, whose every entry is probed (its echo row)
  const perEntry = 3 + Number(list.length > MAX_COMPOUND) + Number(rule.excludeLikedEchos) + Number(tagTestOnEcho) + Number(probing);
  const rarest = rule.tagMatchType === "all" && rule.authors.length === 0 ? 2 * rule.includedTags.length + 1 : 0;
  return Math.max(1, Math.floor((candidateRows - list.length - rarest) / perEntry));
}
