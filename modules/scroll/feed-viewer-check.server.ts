// The repair pass's check of viewer indexes (decision 033): nothing drifts. A viewer index holds its
// rule's shared index less the echos its viewer liked, so it is compared with exactly that — the
// shared index's first entries (checked against the engine just before, in the same pass) less
// the liked ones — over the range both reached: what is missing or stands at another rank is
// written, what should not be there (a like whose message was lost) goes. A hiding one (`h:`) is
// compared with the shared entries less what its viewer hides for good (and liked, of a hide-liked
// rule), the same way.
import { isId } from "../shared/index";
import { batch, select, sql, tables, type Db, type SQL } from "../shared/index.server";
import { before, deleteEntries, orderSql, reachOf, type Entry, type Position } from "./feed-index.server";
import { insertViewerEntries, leftOut, viewerKindOf } from "./feed-viewer-index.server";
import { ruleOfKey } from "./rule.server";

/** Viewer indexes checked per pass (the longest unchecked first), and the depth each is compared to. */
const VIEWER_CHECKS = 10;
const CHECK_DEPTH = 100;

export async function checkViewerIndexes(db: Db, now: number): Promise<{ checked: number; added: number; removed: number }> {
  const fi = tables.feedIndexes;
  const [due] = await batch(db, [
    select(
      { id: fi.id, ruleKey: fi.ruleKey, viewerId: fi.viewerId, complete: fi.complete, floor: fi.floor, floorRank: fi.floorRank },
      sql`FROM feed_indexes WHERE viewer_id IS NOT NULL AND state = 'ready' AND (complete = 1 OR floor IS NOT NULL) ORDER BY checked_at LIMIT ${VIEWER_CHECKS}`,
    ),
  ]);
  const done = { checked: 0, added: 0, removed: 0 };
  for (const index of due) {
    const viewerId = index.viewerId!;
    if (!isId(viewerId)) continue;
    const baseKey = index.ruleKey.slice(index.ruleKey.indexOf(":", 2) + 1);
    const rule = ruleOfKey(baseKey);
    const ie = tables.feedIndexEntries;
    // the hiding kind (`h:`) leaves out what its viewer hides for good instead (a probe of the echo
    // row), a hider's of a hide-liked feed (`b:`) both
    const kind = viewerKindOf(index.ruleKey);
    const out = leftOut(kind, viewerId, "ie.echo_id");
    const [base, shared, held] = await batch(db, [
      select({ complete: fi.complete, floor: fi.floor, floorRank: fi.floorRank }, sql`FROM feed_indexes WHERE rule_key = ${baseKey} AND state = 'ready' AND viewer_id IS NULL`),
      select(
        { echoId: sql<string>`ie.echo_id`, rank: sql<number>`ie.rank`, liked: out },
        sql`FROM feed_indexes b JOIN feed_index_entries ie ON ie.index_id = b.id WHERE b.rule_key = ${baseKey} AND b.state = 'ready' AND b.viewer_id IS NULL
          ORDER BY ${orderSql(rule, "ie")} LIMIT ${CHECK_DEPTH + 1}`,
      ),
      select({ echoId: ie.echoId, rank: ie.rank }, sql`FROM feed_index_entries WHERE index_id = ${index.id} ORDER BY ${orderSql(rule)} LIMIT ${CHECK_DEPTH + 1}`),
    ]);
    const statements: SQL[] = [sql`UPDATE feed_indexes SET checked_at = ${now} WHERE id = ${index.id}`];
    if (base[0]) {
      // the compared range: to the viewer index's frontier, the shared one's, and the last of each read
      const ends: Position[] = [];
      const mine = reachOf(index);
      const theirs = reachOf(base[0]);
      if (!mine.complete && mine.floor) ends.push(mine.floor);
      if (!theirs.complete && theirs.floor) ends.push(theirs.floor);
      if (shared.length > CHECK_DEPTH) ends.push({ rank: shared[CHECK_DEPTH - 1]!.rank, id: shared[CHECK_DEPTH - 1]!.echoId });
      if (held.length > CHECK_DEPTH) ends.push({ rank: held[CHECK_DEPTH - 1]!.rank, id: held[CHECK_DEPTH - 1]!.echoId });
      const within = (p: Position) => ends.every((end) => !before(rule, end, p));
      const should = new Map(shared.filter((r) => !r.liked && within({ rank: r.rank, id: r.echoId })).map((r) => [r.echoId, r.rank] as const));
      const has = new Map(held.filter((h) => within({ rank: h.rank, id: h.echoId })).map((h) => [h.echoId, h.rank] as const));
      const missing: Entry[] = [...should].filter(([id, rank]) => has.get(id) !== rank).map(([id, rank]) => [index.id, rank, id]);
      const extra = [...has.keys()].filter((id) => !should.has(id));
      const leaving = [...extra, ...missing.map(([, , id]) => id)].map((id): [number, string] => [index.id, id]);
      if (leaving.length > 0) statements.push(deleteEntries(leaving));
      if (missing.length > 0) statements.push(insertViewerEntries(missing, kind, viewerId));
      done.added += missing.length;
      done.removed += extra.length;
    }
    await batch(db, statements);
    done.checked++;
  }
  return done;
}
