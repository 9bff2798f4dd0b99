// A scroll's pages of echos: a curation's newest-added first (curation-pages.server.ts); a feed's
// from its index where the index is built and reaches the page (feed-index.server.ts), else from
// the engine (feed-rules.server.ts); the isolate's hints (feedRules here, the built indexes in
// feed-index.server.ts) that let a page go in the scroll lookup's round trip.
// (Over 300 lines: feedEchos chooses among the index's page — the rule's or, for a hide-liked
// reader, their viewer index: decision 033 — the crossing page, the scan past a frontier and the
// engine's, each one batch with the viewer's facts beside it — issue 32 — and the lookup's guess
// before them; split, each path would need the others' hints. A short page's second statement,
// which fills it within the rows its first round trip left, is feed-fill.server.ts: decision 034.)
import { alias } from "drizzle-orm/sqlite-core";
import { badRequest, candidateRowsFor, DEFAULT_LIMIT, ECHO_ROWS, encodeCursor, forbidden, isId, knownSoFar, notFound, PAGE_ROW_TARGET, type ListCursor } from "../shared/index";
import { batch, boundedHints, listCursor, sql, type AppContext, prepared, select, tables } from "../shared/index.server";
import { type EchoRow, type PageRequest } from "../echo/index.server";
import { CANDIDATE_ROWS, feedPage, engineTests, feedKeptQuery, feedPageQuery, holdsRule, namedHiddenText, NOBODY, pageCandidateRows, windowSize, type FeedPageRow, type Hiding, type Seek } from "./feed-rules.server";
import { forgetIndex, knownIndex, ofEverything, positionOf, reachOf, reaches, rememberIndex, type IndexReach } from "./feed-index.server";
import { noteFeedHint, withColdHint, type FeedHint } from "./feed-hint.server";
import { askToExtend } from "./feed-index-extend.server";
import { indexCursor, scanEntries, scannedPage } from "./feed-past-frontier.server";
import { HIDE_LIKED_PAGE_MAX, INDEX_PAGE_MAX, indexPage, indexPageQuery, indexState } from "./feed-index-pages.server";
import { ruleColumns, ruleKeyOf, ruleOfFeedConfig, sameRule, toRule } from "./rule.server";
import { echoPage, visibleScroll } from "./rows.server";
import { curationEchos } from "./curation-pages.server";
import { goneFor, hidesHint, hidingHint, learnHiding, viewerFactsFor } from "./feed-viewer.server";
import { afterViewerPage, mayHaveHidingIndex, mayHaveViewerIndex, viewerChoice, viewerKeyOf } from "./feed-viewer-index.server";
import { fillEnginePage, fillIndexPage } from "./feed-fill.server";
import type { FeedRule, Scroll, ScrollEchoPage } from "./schema";

const s = alias(tables.scrolls, "s");

/** Where a feed page starts, from its checked cursor (listCursor). */
export const feedSeek = (key: ListCursor | null): Seek => (key ? { id: key.id, likes: key.l } : null);

/** The cursor of the page after `last` (a feed page's last echo or its window's frontier). */
export const feedCursor = (rule: FeedRule, last: EchoRow): string =>
  encodeCursor(rule.sortBy === "mostLiked" ? { l: last.likesCount, id: last.id } : { id: last.id });

/**
 * Candidate rows for a feed page rendered inside a document (home, a scroll's page): the shell's
 * layout reads up to ~55 rows of its own (the viewer's first scrolls, the stored choice), so the
 * document's feed page window is smaller than an API page's, and the whole document stays within
 * 200 rows (docs/decisions/010). The client then continues by the API as usual. 45 when an echo
 * read 3 rows; 30 since an echo reads 5 at worst (decision 027, "Pages sized by rows per echo").
 */
const SHELL_ROWS = 55;
export const DOCUMENT_CANDIDATE_ROWS = candidateRowsFor(DEFAULT_LIMIT, SHELL_ROWS);

/**
 * A scroll's echos: a feed evaluates its rule now; a curation lists newest-added first. Given
 * a scroll object the viewer may see (home), it skips reading the scroll again.
 */
export async function scrollEchos(
  app: AppContext,
  viewerId: string,
  idOrScroll: string | Scroll,
  req: PageRequest,
  now = Date.now(),
  candidateRows = CANDIDATE_ROWS,
): Promise<ScrollEchoPage> {
  if (typeof idOrScroll !== "string") {
    const key = listCursor(req);
    const offset = key ? 0 : (req.page - 1) * req.limit;
    return idOrScroll.type === "feed"
      ? feedEchos(app, viewerId, ruleOfFeedConfig(idOrScroll.feedConfig), req, key, offset, now, candidateRows)
      : curationEchos(app, viewerId, idOrScroll._id, req, key, offset, Promise.resolve(idOrScroll.echosCount));
  }
  // the page needs only what decides it: the scroll's type, privacy, rule and count (one row)
  return echosById(app, viewerId, idOrScroll, req, now, candidateRows, (feedGuess) => scrollFacts(app, viewerId, idOrScroll, !feedGuess));
}

/** A scroll's page (as scrollEchos) with the scroll as getScroll answers it: its page's lookup. */
export async function scrollWithEchos(
  app: AppContext,
  viewerId: string,
  id: string,
  req: PageRequest,
  now = Date.now(),
  candidateRows = CANDIDATE_ROWS,
): Promise<{ scroll: Scroll; page: ScrollEchoPage }> {
  let loaded: ReturnType<typeof visibleScroll> | null = null;
  const facts = () => {
    loaded = visibleScroll(app, viewerId, id);
    return loaded.then(({ scroll, row, reach }): ScrollFacts => ({ type: scroll.type, echosCount: scroll.echosCount, rule: toRule(row), reach }));
  };
  const page = await echosById(app, viewerId, id, req, now, candidateRows, facts);
  return { scroll: (await loaded!).scroll, page };
}

/** What a scroll's page depends on (`reach`: its rule's ready index's, if any). */
type ScrollFacts = { type: Scroll["type"]; echosCount: number; rule: FeedRule; reach: IndexReach | null };

const scrollFactsById = prepared(["id"], (v) =>
  select(
    {
      type: s.type,
      isPrivate: s.isPrivate,
      creatorId: s.creatorId,
      echosCount: s.echosCount,
      ...ruleColumns(s),
      // the feed index's state (decision 020): one row, for a feed whose rule has a built index,
      // so it serves this scroll's page from the isolate's first read of it
      indexComplete: sql<number | null>`fi.complete`,
      indexFloor: sql<string | null>`fi.floor`,
      indexFloorRank: sql<number | null>`fi.floor_rank`,
      indexNear: sql<string | null>`fi.near`,
      indexNearRank: sql<number | null>`fi.near_rank`,
    },
    sql`FROM scrolls s LEFT JOIN feed_indexes fi ON fi.rule_key = s.rule_key AND fi.state = 'ready' WHERE s.id = ${v.id}`,
  ),
);

/**
 * The scroll's facts when the viewer may see it: 404 and 403 as getScroll answers them. With
 * `askViewer`, unless the isolate knows them, what the viewer hides too — not when a feed's page
 * rides beside the lookup: its batch reads them where they decide something, and twice in one
 * round trip cost a page at its budget's edge 7 rows (hide-liked-engine.test, a new isolate).
 */
async function scrollFacts(app: AppContext, viewerId: string, id: string, askViewer: boolean): Promise<ScrollFacts> {
  if (!isId(id)) throw notFound("Scroll not found");
  // and, the first time this isolate sees the viewer, what the feed page after it should know of
  // them (feed-viewer.server.ts; later feed pages' own batches keep it current)
  const ask = askViewer && hidingHint(viewerId) === undefined;
  const [rows, viewer] = await batch(app.db, [scrollFactsById({ id }), ...(ask ? [viewerFactsFor(viewerId, null)] : [])]);
  learnHiding(viewerId, viewer?.[0]);
  const row = rows[0];
  if (!row) throw notFound("Scroll not found");
  if (row.isPrivate && row.creatorId !== viewerId) throw forbidden("This scroll is private");
  const rule = toRule(row);
  const reach = row.indexComplete !== null
    ? reachOf({ complete: row.indexComplete, floor: row.indexFloor, floorRank: row.indexFloorRank, near: row.indexNear, nearRank: row.indexNearRank })
    : null;
  if (reach) rememberIndex(ruleKeyOf(rule), reach);
  return { type: row.type, echosCount: row.echosCount, rule, reach };
}

async function echosById(
  app: AppContext,
  viewerId: string,
  id: string,
  req: PageRequest,
  now: number,
  candidateRows: number,
  look: (feedGuess: boolean) => Promise<ScrollFacts>,
): Promise<ScrollEchoPage> {
  // The cursor's error is answered after the scroll's (404, 403 first).
  let key: ListCursor | null = null;
  let badCursor: unknown = null;
  try {
    key = listCursor(req);
  } catch (error) {
    badCursor = error;
  }
  const offset = key ? 0 : (req.page - 1) * req.limit;
  // The page is sent in the lookup's round trip, before the scroll's type is known. A feed's page
  // needs its rule: when this isolate has seen the feed before (feedRules), its page is built
  // from that rule and guarded in SQL to it, so a rule edited since reads nothing and the page
  // is read again below with the rule the lookup found. Otherwise the page is sent as if the
  // scroll were a curation: its statement is guarded in SQL to a curation the viewer may see, so
  // for a feed, a private scroll of someone else or an unknown id it reads nothing. Its count is
  // the scroll row's own counter, read by the lookup. An isolate's first read of a scroll learns
  // its rule and index from a hint in KV, when one was kept (feed-hint.server.ts): its page is
  // then a warm isolate's, guarded the same way.
  const guessable = isId(id) && badCursor === null;
  const remembered = guessable ? feedRules.get(id) : undefined;
  const send = (hint: FeedHint | null) => {
    if (hint) {
      rememberRule(id, hint.rule);
      const indexKey = ruleKeyOf(hint.rule);
      if (hint.reach && knownIndex(indexKey) === undefined) rememberIndex(indexKey, hint.reach);
    }
    const seen = remembered ?? hint?.rule;
    const lookup = look(guessable && seen !== undefined);
    const guess = !guessable
      ? null
      : seen !== undefined
        ? feedEchos(app, viewerId, seen, req, key, offset, now, candidateRows, id)
        : curationEchos(
            app,
            viewerId,
            id,
            req,
            key,
            offset,
            lookup.then((facts) => facts.echosCount),
            lookup.then((facts) => facts.type === "curation", () => false),
          );
    return { seen, lookup, guess };
  };
  const { seen, lookup, guess } = guessable && remembered === undefined ? await withColdHint(app, id, send) : send(null);
  const [looked, guessed] = await Promise.allSettled([lookup, guess]);
  if (looked.status === "rejected") throw looked.reason;
  if (badCursor !== null) throw badCursor;
  const { type, rule, echosCount, reach } = looked.value;
  if (type === "feed") noteFeedHint(app, id, rule, reach);
  if (type === "feed" && !(seen !== undefined && sameRule(seen, rule))) {
    rememberRule(id, rule);
    return feedEchos(app, viewerId, rule, req, key, offset, now, candidateRows);
  }
  if (type === "curation" && seen !== undefined) {
    // a type never changes (updateScroll): only a hint gone wrong gets here
    feedRules.delete(id);
    return curationEchos(app, viewerId, id, req, key, offset, Promise.resolve(echosCount));
  }
  if (guessed.status === "rejected") throw guessed.reason;
  return guessed.value!;
}

/**
 * Feed rules this isolate has read, by scroll id: a hint for scrollEchos, never an answer (the
 * page it guesses is read only while the scroll still holds the rule). At most 1,000 (a rule is
 * at most a few kilobytes); the oldest is forgotten first.
 */
const feedRules = boundedHints<string, FeedRule>(1000);
const rememberRule = (id: string, rule: FeedRule) => feedRules.set(id, rule);

/** A feed's page: its rule evaluated now, within its window of candidates. */
async function feedEchos(
  app: AppContext,
  viewerId: string,
  rule: FeedRule,
  req: PageRequest,
  key: ListCursor | null,
  offset: number,
  now: number,
  candidateRows: number,
  whileScroll: string | null = null,
): Promise<ScrollEchoPage> {
  // no COUNT over the rule (it would read every match): the total is a lower bound, see below
  // a page larger than a screen's has fewer candidate rows: its echos take more (decision 027);
  // a reader who hides what they liked sees none of their likes on it, so its echos' like probes
  // find nothing and read no row: a screen's worth of rows more for the window (decision 020,
  // "Hide-liked readers of the engine": 18 entries were 18 echos at most, never a screen)
  const window = windowSize(rule, pageCandidateRows(req.limit, candidateRows) + (rule.excludeLikedEchos ? DEFAULT_LIMIT : 0));
  const seek = feedSeek(key);
  // the path that suits the viewer (a hint), and beside each batch what decides the next one
  const hiding = hidingHint(viewerId) === true;
  const facts = viewerFactsFor(viewerId, rule);
  const engine = () => feedPageQuery(rule, viewerId, now, seek, req.limit, offset, window, whileScroll, hiding);
  // a rule of everything read by a reader who may have no viewer index of it (hides nothing, keeps
  // what they liked) reads the echos table in its own order, every entry a match: its engine page
  // is full and costs less than the index's (an entry row an echo)
  const plain = ofEverything(rule) && !mayHaveViewerIndex(rule, viewerId) && !mayHaveHidingIndex(rule, viewerId, hidesHint(viewerId) === true);
  if (offset > 0 || plain) {
    // (the facts only where the rule names authors — a feed they all left ends here — or the
    // isolate has no hint yet: a screen's window has no row to spare for them, hide-liked-engine.test)
    const ask = rule.authors.length > 0 || hidingHint(viewerId) === undefined;
    const [rows, viewer] = await batch(app.db, [engine(), ...(ask ? [facts] : [])]);
    return goneFor(viewerId, viewer, req) ?? enginePage(app, viewerId, rule, req, rows, window, offset, now, whileScroll);
  }
  // The feed index (decision 020). Its state rides in the page's batch (one row). Where this
  // isolate has seen the index built and reaching this depth, the page is read from the index;
  // otherwise from the engine, as before — sending both would read both.
  const ruleKey = ruleKeyOf(rule);
  const position = positionOf(rule, seek);
  const known = knownIndex(ruleKey);
  if (known && reaches(rule, known, position)) {
    const guard = whileScroll === null ? sql`1` : holdsRule(whileScroll, viewerId, rule);
    // a reader who hides what they liked reads a bounded run of entries (HIDE_LIKED_SCAN)
    const take = Math.min(req.limit, rule.excludeLikedEchos ? HIDE_LIKED_PAGE_MAX : INDEX_PAGE_MAX);
    // a viewer believed to hide anyone, a rule naming authors and no tag: the engine's page beside
    // the index's, each read only in its case — the engine's (the seen authors' streams alone) when
    // the viewer hides a named author (with tags the index's is better: decision 026)
    const named = hiding && rule.authors.length > 0 && rule.includedTags.length === 0 ? namedHiddenText(rule, viewerId) : null;
    const instead = named === null ? [] : [feedPageQuery(rule, viewerId, now, seek, req.limit, 0, window, whileScroll, "if-named-hidden")];
    // a reader who hides what they liked, or anyone (the hiding kind, of a hide-liked rule too),
    // reads their viewer index where it is ready (decision 033, viewerChoice: h32i); its kind by
    // what they hide themselves, not moderation (tested by the page, left out of no index: h32r)
    const { own, kind, readKey } = viewerChoice(rule, ruleKey, viewerId, position, hidesHint(viewerId) === true);
    const [state, indexed, viewer, engineRows] = await batch(app.db, [
      indexState(readKey),
      indexPageQuery(rule, viewerId, seek, take, guard, now, named === null ? null : sql.raw(`NOT ${named}`), readKey),
      facts,
      ...instead,
    ]);
    const gone = goneFor(viewerId, viewer, req);
    if (gone) return { ...gone, feedIndex: "ready" };
    if (engineRows && viewer[0]?.some) return { ...(await enginePage(app, viewerId, rule, req, engineRows, window, 0, now, whileScroll, true)), feedIndex: "ready" };
    const st = state[0] ? reachOf(state[0]) : null;
    if (state[0]?.state === "ready" && st && reaches(rule, st, position)) {
      const got = indexPage(rule, indexed, take, st);
      const ownIndex = state[0].viewer === 1;
      if (!ownIndex) rememberIndex(ruleKey, st);
      // near its frontier: the index reaches deeper before this reader gets there (decision 020);
      // a hide-liked reader's short page asks for their own index (decision 033)
      if (!ownIndex) askToExtend(app, rule, ruleKey, st, position);
      if (own) afterViewerPage(app, rule, ruleKey, viewerId, { viewer: ownIndex, short: got.rows.length < take && got.after !== null, st, position, kind });
      if (!got.atFrontier) {
        // short with more to come: a second statement fills it where the rows left allow (decision 034)
        const page = await fillIndexPage(app, rule, viewerId, got, take, st, ownIndex ? viewerKeyOf(ruleKey, viewerId, kind) : ruleKey, now, viewer[0]?.filters === 1);
        const nextCursor = page.after ? indexCursor(rule, page.after) : null;
        const total = (req.page - 1) * req.limit + page.rows.length + (nextCursor ? 1 : 0);
        return { ...echoPage(page.rows, req, total, nextCursor !== null, nextCursor), feedIndex: "ready" };
      }
      // The page met the index's frontier before it filled: the engine goes on from there, in a
      // second round trip and the rows the index page left (about 3 per entry read, 3 per echo).
      // A page read after a lookup of its own (not in the lookup's round trip: `whileScroll` is
      // null) has no second trip left (≤ 2): it ends at the frontier, its cursor there, and the
      // next page is the engine's — unless it found nothing (no empty page with more to come).
      if (whileScroll === null && got.rows.length > 0) {
        const total = (req.page - 1) * req.limit + got.rows.length + 1;
        return { ...echoPage(got.rows, req, total, true, indexCursor(rule, st.floor!)), feedIndex: "ready" };
      }
      const rest = take - got.rows.length;
      // what the index page read (an entry, its echo's rows, a hiding viewer's probe) and the
      // rest's echos leave for the engine's entries, read without numbering (decision 020, "Past
      // the frontier, full"): a page short of them goes on after its last echo
      const rows = PAGE_ROW_TARGET - (ECHO_ROWS + 2) * (indexed.length + 1) - ECHO_ROWS * (rest + 1) - 12;
      const left = Math.max(20, Math.min(candidateRows, rows));
      const from: Seek = { id: st.floor!.id, likes: st.floor!.rank };
      const tests = engineTests(rule, viewerId, now);
      const [after] = await batch(app.db, [
        tests
          ? feedKeptQuery(rule, viewerId, now, from, rest, scanEntries(rule, left - ECHO_ROWS), whileScroll)
          : feedPageQuery(rule, viewerId, now, from, rest, 0, windowSize(rule, left), whileScroll, hidingHint(viewerId) === true),
      ]);
      const fed = feedPage(rule, after, rest, now);
      const page = [...got.rows, ...fed.rows];
      const last = fed.rows[fed.rows.length - 1];
      // (a rule the engine does not test reads its head: its end is known)
      const more = fed.hasMore || tests;
      const nextCursor = !more ? null : fed.hasMore && fed.after ? feedCursor(rule, fed.after) : last ? feedCursor(rule, last) : indexCursor(rule, st.floor!);
      const total = (req.page - 1) * req.limit + page.length + (more ? 1 : 0);
      return { ...echoPage(page, req, total, more, nextCursor), feedIndex: "ready" };
    }
    // the index no longer reaches here (its frontier moved, or it was dropped): the engine, once more
    forgetIndex(ruleKey);
  }
  // past a ready index's frontier with a second round trip left (the lookup's batch carries this
  // one): a scan of ids, then the chosen echos by id (decision 020, "Past the frontier, full")
  if (known && !reaches(rule, known, position) && known.floor !== null && whileScroll !== null && engineTests(rule, viewerId, now)) {
    return scannedPage(app, viewerId, rule, req, seek, now, pageCandidateRows(req.limit, candidateRows), whileScroll);
  }
  const [state, rows, viewer] = await batch(app.db, [indexState(ruleKey), engine(), facts]);
  const gone = goneFor(viewerId, viewer, req);
  if (gone) return { ...gone, feedIndex: state[0]?.state ?? "building" };
  const st = state[0];
  if (st?.state === "ready") {
    rememberIndex(ruleKey, reachOf(st));
    // past its frontier (a reader faster than the extension, or an index built before the marker)
    askToExtend(app, rule, ruleKey, reachOf(st), position);
  }
  return { ...(await enginePage(app, viewerId, rule, req, rows, window, offset, now, whileScroll)), feedIndex: st?.state ?? "building" };
}

/** The engine's page: within its window of candidates; for a reader something may hide (or who
 * hides what they liked), a short first window filled by a second statement (decision 034). */
async function enginePage(
  app: AppContext,
  viewerId: string,
  rule: FeedRule,
  req: PageRequest,
  rows: FeedPageRow[],
  window: number,
  offset: number,
  now: number,
  whileScroll: string | null,
  hidingAs: Hiding = hidingHint(viewerId) === true,
): Promise<ScrollEchoPage> {
  // a feed page may stop at its window's frontier: short (even empty) with more to come
  const first = feedPage(rule, rows, req.limit, now);
  const fills = offset === 0 && (hidingHint(viewerId) === true || (rule.excludeLikedEchos && viewerId !== NOBODY));
  const fed = fills ? await fillEnginePage(app, rule, viewerId, first, req.limit, window, now, whileScroll, hidingAs) : first;
  // A page number without a cursor is served from the rule's first window (decision 010). When
  // that window ends before the page starts, the page can't be found within the row budget:
  // say so, rather than answer an empty page with more to come forever.
  if (offset > 0 && fed.rows.length === 0 && fed.hasMore) {
    throw badRequest(`page ${req.page} of this feed needs a cursor: follow pagination.nextCursor from page ${req.page - 1}`);
  }
  const nextCursor = fed.hasMore && fed.after ? feedCursor(rule, fed.after) : null;
  // A feed's total is what is known without counting every match (knownSoFar).
  const total = knownSoFar(req.page, req.limit, fed.rows.length, fed.hasMore);
  return echoPage(fed.rows, req, total, fed.hasMore, nextCursor);
}
