// The feed index's consumer (decision 020): a batch of the change stream — posts, likes, edits
// and deletes — written into the indexes it reaches, and backfill messages run.
import { batch, select, sendChanges, sql, tables, type AppContext, type Change, type ChangedEcho, type Db, type SQL } from "../shared/index.server";
import { ruleChecks } from "./feed-rules.reference";
import { backfillStep, type Backfilled } from "./feed-index-backfill.server";
import { hintReadyIndexes } from "./feed-hint-writes.server";
import { extendStep, markNear } from "./feed-index-extend.server";
import { insertViewerEntries, resetHiding, viewerKindOf, viewerStep } from "./feed-viewer-index.server";
import { denseChecks, denseRuns, walkedRuns } from "./feed-viewer-eager.server";
import { before, deleteEntries, insertEntries, reachOf, type Entry, type IndexReach, type Position } from "./feed-index.server";
import { ruleOfKey } from "./rule.server";
import type { FeedRule } from "./schema";

/** Backfills one consumer batch runs side by side. */
const BACKFILL_CONCURRENCY = 4;

const likeTerms = (echo: ChangedEcho) => [...echo.tags.map((t) => `l:t:${t}`), `l:a:${echo.authorId}`, "l:*"];
export const echoTerms = (echo: ChangedEcho) => [...echo.tags.map((t) => `t:${t}`), `a:${echo.authorId}`, "*", ...likeTerms(echo)];

/** What a batch of changes did: candidate indexes looked at per post and per like, entries written;
 * `hinted`: KV hints written for the scrolls of indexes made ready (feed-hint-writes.server.ts). */
export type Consumed = { posts: number; likes: number; candidates: number; written: number; deleted: number; backfills: number; hinted: number } & Backfilled;

type Candidate = { id: number; ruleKey: string; state: "building" | "ready"; complete: boolean; floor: string | null; floorRank: number | null; cap: number; terms: string; viewerId: string | null };
const candidateColumns = () => ({
  id: tables.feedIndexes.id,
  ruleKey: tables.feedIndexes.ruleKey,
  state: tables.feedIndexes.state,
  complete: tables.feedIndexes.complete,
  floor: tables.feedIndexes.floor,
  floorRank: tables.feedIndexes.floorRank,
  cap: tables.feedIndexes.cap,
  viewerId: tables.feedIndexes.viewerId,
});
/** The indexes registered under any of `terms`, with their state and frontier. */
const candidatesOf = (terms: string[]) =>
  select(
    { ...candidateColumns(), terms: sql<string>`json_group_array(ft.term)` },
    sql`FROM feed_rule_terms ft JOIN feed_indexes ON feed_indexes.id = ft.index_id
      WHERE ft.term IN (SELECT value FROM json_each(${JSON.stringify(terms)})) GROUP BY feed_indexes.id`,
  );
/** The viewer indexes of the users who liked or unliked (decision 033) that leave out what they
 * liked: a like reaches a newest- or oldest-first viewer index, which registers no like term (a
 * hider's only of a hide-liked feed, `b:`: `likeKeeping`). */
const likersIndexes = (likers: string[]) =>
  select({ ...candidateColumns(), terms: sql<string>`'[]'` }, sql`FROM feed_indexes WHERE viewer_id IN (SELECT value FROM json_each(${JSON.stringify(likers)}))`);
/** The viewer indexes registered under any of `terms` (a post's): a replayed like names no liker,
 * so it reaches every viewer's index of the echo's rules that leaves out what they liked (decision 033, "Replays"). */
const viewersOf = (terms: string[]) =>
  select(
    { ...candidateColumns(), terms: sql<string>`json_group_array(ft.term)` },
    sql`FROM feed_rule_terms ft JOIN feed_indexes ON feed_indexes.id = ft.index_id
      WHERE ft.term IN (SELECT value FROM json_each(${JSON.stringify(terms)})) AND feed_indexes.viewer_id IS NOT NULL
      GROUP BY feed_indexes.id`,
  );
/** Viewer indexes a like changes: `v:`, and a hider's of a hide-liked feed, `b:` (decision 033, "Hiders of hide-liked feeds"). */
const likeKeeping = (rows: Candidate[]) => rows.filter((c) => viewerKindOf(c.ruleKey) !== "h");


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
  const done: Consumed = { posts: 0, likes: 0, candidates: 0, written: 0, deleted: 0, backfills: 0, hinted: 0, steps: 0, backfilled: 0, finished: 0, ready: [] };
  const posts = changes.flatMap((c) => (c.type === "post" ? [c.echo] : []));
  const deletes = changes.flatMap((c) => (c.type === "delete" ? c.echoIds : []));
  const liked = [...new Set(changes.flatMap((c) => (c.type === "likes" ? c.echoIds : [])))];
  // an edited echo leaves every index and enters those its rule checks pass now (decision 025)
  const edited = [...new Set(changes.flatMap((c) => (c.type === "edit" ? c.echoIds : [])))];
  const inserts: Entry[] = [];
  // viewer indexes among the candidates (decision 033): their entries are written only while
  // unliked (`v:`) or seen (`h:`): the index's key names its kind
  const viewerOf = new Map<number, string>();
  const moves: Entry[] = [];
  const leaves: [number, string][] = [];
  const likers = new Map<string, string[]>();
  for (const c of changes) if (c.type === "likes" && c.userId) likers.set(c.userId, [...(likers.get(c.userId) ?? []), ...c.echoIds]);
  // likes without their liker (the repair pass's relay and rank sweep: a lost like or unlike)
  const unattributed = new Set(changes.flatMap((c) => (c.type === "likes" && !c.userId ? c.echoIds : [])));
  if (posts.length > 0 || liked.length > 0 || edited.length > 0) {
    const terms = [...new Set(posts.flatMap(echoTerms))];
    const [postCandidates, likedEchos, likersRows] = await batch(db, [
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
      likersIndexes([...likers.keys()]),
    ]);
    const likerCandidates = likeKeeping(likersRows as Candidate[]);
    const facts = likedEchos.filter((e) => liked.includes(e.id));
    const editedFacts = likedEchos.filter((e) => edited.includes(e.id));
    const factTerms = [...facts.flatMap(likeTerms), ...editedFacts.flatMap(echoTerms)];
    const replayed = facts.filter((e) => unattributed.has(e.id));
    const replayTerms = [...new Set(replayed.flatMap(echoTerms))];
    const [likeCandidates, replayRows] = factTerms.length > 0 ? await batch(db, [candidatesOf([...new Set(factTerms)]), viewersOf(replayTerms)]) : [[], []];
    const replayCandidates = likeKeeping(replayRows as Candidate[]);
    const matching = function* (echo: ChangedEcho, candidates: Candidate[], mine: Set<string>) {
      for (const c of candidates) {
        if (!(JSON.parse(c.terms) as string[]).some((t) => mine.has(t))) continue;
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
      const reached = new Set<number>();
      for (const c of matching(e, likeCandidates as Candidate[], new Set(likeTerms(e)))) {
        reached.add(c.id);
        const rule = ruleOfKey(c.ruleKey);
        const at = { rank: e.likes, id: e.id };
        const keep = ruleChecks(rule, e, false, now).every((check) => check.passed) && (c.state === "building" || reachesTo(rule, reachOf(c), at));
        if (keep) moves.push([c.id, e.likes, e.id]);
        else leaves.push([c.id, e.id]);
      }
      // the liker's own viewer indexes (any order): the echo leaves them, or enters again unliked;
      // a replayed like's, every viewer's whose index the echo's rules reach (the insert is
      // guarded by the viewer's like: a lost like takes it out, a lost unlike puts it back)
      const replay = unattributed.has(e.id) ? replayCandidates.filter((c) => (JSON.parse(c.terms) as string[]).some((t) => echoTerms(e).includes(t))) : [];
      for (const c of [...likerCandidates, ...replay]) {
        if (reached.has(c.id) || !(replay.includes(c) || likers.get(c.viewerId!)?.includes(e.id))) continue;
        reached.add(c.id);
        done.candidates++;
        const rule = ruleOfKey(c.ruleKey);
        const at = { rank: rule.sortBy === "mostLiked" ? e.likes : 0, id: e.id };
        if (ruleChecks(rule, e, false, now).every((check) => check.passed) && reachesTo(rule, reachOf(c), at)) moves.push([c.id, at.rank, e.id]);
        else leaves.push([c.id, e.id]);
      }
    }
    for (const c of [...(postCandidates as Candidate[]), ...(likeCandidates as Candidate[]), ...likerCandidates, ...replayCandidates]) if (c.viewerId) viewerOf.set(c.id, `${viewerKindOf(c.ruleKey)}:${c.viewerId}`);
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
  statements.push(...inserting(inserts, viewerOf));
  // an entry moves by leaving and entering again at its count (one echo, one entry per index)
  for (const part of chunks([...leaves, ...moves.map(([index, , echo]): [number, string] => [index, echo])])) statements.push(deleteEntries(part));
  statements.push(...inserting(moves, viewerOf));
  if (deletes.length > 0) statements.push(sql`DELETE FROM feed_index_entries WHERE echo_id IN (SELECT value FROM json_each(${JSON.stringify(deletes)}))`);
  if (statements.length > 0) await batch(db, statements);
  // a like that makes a run of a hide-liked feed too dense for its liker's page: their viewer
  // index is made now, before a page needs it (decision 033, "Made on like")
  // (and the runs the cron's walk over existing likes found: "The walk over existing likes")
  const dense = denseChecks(changes);
  const walked = walkedRuns(changes);
  if (dense.length > 0 || walked.length > 0) sendChanges(app, await denseRuns(db, dense, walked, now));
  done.written = inserts.length + moves.length;
  done.deleted = deletes.length + leaves.length + edited.length;
  // one step per rule however many of its messages came (a resent one, a repeat); an extension's
  // too (the last of a rule's messages: a repeat names a frontier that moved, and does nothing)
  const building = [...new Set(changes.flatMap((c) => (c.type === "backfill" ? [c.ruleKey] : [])))];
  const extending = new Map(changes.flatMap((c) => (c.type === "extend" ? [[c.ruleKey, c] as const] : [])));
  // viewer indexes (decision 033): one step per index and kind (a walk, a touch)
  const viewers = new Map(changes.flatMap((c) => (c.type === "viewer" ? [[`${c.viewerId}\n${c.ruleKey}\n${c.touch ? 1 : 0}\n${c.hide ? 1 : 0}${c.liked ? 1 : 0}`, c] as const] : [])));
  // a block, mute or muted word changed: the viewers' hiding indexes emptied, and made again
  const hiders = [...new Set(changes.flatMap((c) => (c.type === "hiding" ? c.viewerIds : [])))];
  if (hiders.length > 0) sendChanges(app, await resetHiding(db, hiders, now));
  done.backfills = building.length + extending.size + viewers.size;
  const steps = [
    ...building.map((key) => () => backfillStep(db, key, now, done)),
    ...[...extending.values()].map((c) => () => extendStep(db, c, now, done)),
    ...[...viewers.values()].map((c) => () => viewerStep(db, c, now)),
  ];
  const work = async () => {
    for (let step = steps.shift(); step !== undefined; step = steps.shift()) {
      const next = await step();
      if (next) sendChanges(app, [next]);
      else done.finished++;
    }
  };
  await Promise.all(Array.from({ length: BACKFILL_CONCURRENCY }, work));
  // a cold isolate's first page of their scrolls rides in its lookup's round trip (decision 020)
  done.hinted = await hintReadyIndexes(app, db, done.ready!);
  await markNear(db, changes.filter((c) => c.type === "mark"));
  return done;
}

/** The inserts of `entries`: the shared indexes' as they are, each viewer's only while unliked by
 * them (`v:<viewer>`), seen by them (`h:<viewer>`), or both (`b:<viewer>`: `h:` of a hide-liked rule). */
function inserting(entries: Entry[], viewerOf: Map<number, string>): SQL[] {
  const byViewer = new Map<string | null, Entry[]>();
  for (const entry of entries) {
    const viewer = viewerOf.get(entry[0]) ?? null;
    const list = byViewer.get(viewer);
    if (list) list.push(entry);
    else byViewer.set(viewer, [entry]);
  }
  return [...byViewer].flatMap(([viewer, list]) =>
    chunks(list).map((part) => (viewer === null ? insertEntries(part) : insertViewerEntries(part, viewerKindOf(viewer), viewer.slice(2)))),
  );
}

const ENTRIES_PER_STATEMENT = 1000;
export const chunks = <T>(list: T[]): T[][] => Array.from({ length: Math.ceil(list.length / ENTRIES_PER_STATEMENT) }, (_, i) => list.slice(i * ENTRIES_PER_STATEMENT, (i + 1) * ENTRIES_PER_STATEMENT));

/** Whether `position` is at or before the index's frontier: an echo standing there belongs in it. */
const reachesTo = (rule: FeedRule, st: IndexReach, position: Position) => st.complete || (st.floor !== null && !before(rule, st.floor, position));
