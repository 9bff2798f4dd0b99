// Deleting one echo (issue 28, docs/decisions/032-bounded-deletes.md "One echo"). As one cascade
// the delete read and wrote every like, share, repost, report and notification of the echo in the
// request: an echo with 5,000 likes read 85,011 rows and wrote 60,016. Now the request deletes an
// echo with few likes as before (DELETE_INLINE) and only marks a bigger one in the moderation set
// (it leaves every list, its author's views included, at once) and starts its `echo:<id>` chain.
// The counts that name it (its author's echos, the store's total, its parent's replies, the quoted
// echo's quotes, its tags') go down in that same batch, so they are exact when the delete answers;
// each `purgeEcho` step (the change stream's runner, runPurgeSteps) deletes a slice of each kind of
// its rows, and the last deletes the echo's row (edits and what came in between cascade with it: a
// handful of rows), its triggers keeping the other counts (notification groups, curation sizes)
// and an echo with replies leaving its tombstone.
import { forbidden, notFound } from "../shared/index";
import { requireEchoId } from "./echo.server";
import {
  batch, chainKey, DELETE_INLINE, DELETED_ECHO, echoDeleted, inlineDeletable, markDeleted, returning, runPurgeSteps, select, sendChanges, sql, startChain, tables, unmarkDeleted,
  type AppContext, type Change, type ChainSlice, type Db, type PurgeChain, type SQL,
} from "../shared/index.server";
import { publishDelete } from "./live.server";

export { DELETE_INLINE };

/** Rows of each kind (likes, reposts, notifications…) one step deletes. */
export const ECHO_PURGE_SLICE = 200;

const markKey = (echoId: string) => `e:${echoId}`;

/**
 * The counts its row's delete triggers would take down, taken down now (when `when`: the chain
 * started in this batch) — or, with `by` 1 in the last step, put back just before those triggers
 * run, so each count goes down once. Tag counts go with its tag links (their triggers), deleted now.
 */
const counts = (id: string, by: -1 | 1, when: SQL): SQL[] => [
  sql`UPDATE users SET echos_count = echos_count + ${by} WHERE id = (SELECT author_id FROM echos WHERE id = ${id}) AND ${when}`,
  sql`UPDATE stats SET value = value + ${by} WHERE key = 'echos' AND EXISTS (SELECT 1 FROM echos WHERE id = ${id}) AND ${when}`,
  sql`UPDATE echos SET comments_count = comments_count + ${by} WHERE id = (SELECT parent_id FROM echos WHERE id = ${id}) AND ${when}`,
  sql`UPDATE echos SET quotes_count = quotes_count + ${by} WHERE id = (SELECT quote_of_id FROM echos WHERE id = ${id}) AND ${when}`,
];

/**
 * Author only; one batch: a small echo's DELETE, else its chain, its mark and its counts down —
 * each only while the echo is the viewer's and not already deleted — and a read that says why
 * nothing happened. 1 round trip, ≤ 200 rows read whatever the echo's likes.
 */
export async function deleteEcho(app: AppContext, viewerId: string, id: string): Promise<void> {
  requireEchoId(id);
  const now = Date.now();
  const owned = sql`EXISTS (SELECT 1 FROM echos WHERE id = ${id} AND author_id = ${viewerId}) AND NOT ${echoDeleted(sql`${id}`)}`;
  const startedNow = sql`EXISTS (SELECT 1 FROM stream_chains WHERE key = ${chainKey.echo(id)} AND updated_at = ${now})`;
  const [direct, started, ...rest] = await batch(app.db, [
    returning(
      sql`DELETE FROM echos WHERE id = ${id} AND author_id = ${viewerId} AND ${inlineDeletable("echos")} AND NOT ${echoDeleted(sql`${id}`)}`,
      { id: tables.echos.id, parentId: tables.echos.parentId },
    ),
    // (after a direct delete the echo is gone and `owned` fails: no chain)
    returning(startChain(chainKey.echo(id), { type: "purgeEcho", echoId: id }, now, owned), { key: tables.streamChains.key }),
    ...counts(id, -1, startedNow),
    // its parent's "most commented" rank moves now, as a reply's delete trigger does
    sql`INSERT OR IGNORE INTO rank_dirty (key) SELECT 'e:' || parent_id FROM echos WHERE id = ${id} AND parent_id IS NOT NULL AND ${startedNow}`,
    // its tags' counts (and per-day counts) by their links' triggers; an edit cannot bring them back (edit.server.ts)
    sql`DELETE FROM echo_tags WHERE echo_id = ${id} AND ${startedNow}`,
    // last of the request's writes: `echoDeleted` above read the set without it
    markDeleted(markKey(id), DELETED_ECHO, startedNow),
    select({ authorId: sql<string>`e.author_id`, parentId: sql<string | null>`e.parent_id`, deleted: sql<number>`${echoDeleted("e.id")}` }, sql`FROM echos e WHERE e.id = ${id}`),
  ]);
  const row = (rest[rest.length - 1] as { authorId: string; parentId: string | null; deleted: number }[])[0];
  if (direct[0] || started[0]) {
    // the feed indexes drop it now (a marked echo's pages test the mark anyway); the purge follows
    sendChanges(app, [{ type: "delete", echoIds: [id] }, direct[0] ? { type: "unfanout", echoId: id } : { type: "purgeEcho", echoId: id }]);
    // open pages drop it live (decision 016), whichever way it goes; a thread's parent counts it out
    publishDelete(app, id, direct[0]?.parentId ?? row?.parentId ?? null);
    return;
  }
  if (row && row.deleted !== 1 && row.authorId !== viewerId) throw forbidden("Only the author can delete this echo");
  throw notFound("Echo not found");
}

/**
 * Whether echo `e` is being purged: marked itself (its own deletion), or its account is (an
 * account's purge hands it its chain when it is too big for the account's steps, auth/purge.server.ts).
 */
const purging = (e: string): SQL => echoDeleted(sql`${e}`, sql`(SELECT author_id FROM echos WHERE id = ${e})`);

/** One step's deletions for echo `e`, each at most its slice, each only while the echo is being purged. */
function slices(e: string): ChainSlice[] {
  const marked = purging(e);
  const s = ECHO_PURGE_SLICE;
  // a slice by the echo's own index (the rows' keys after echo_id name them)
  const slice = (table: string, key: string) =>
    sql.raw(`DELETE FROM ${table} WHERE echo_id = `).append(sql`${e}`).append(sql.raw(` AND (${key}) IN (SELECT ${key} FROM ${table} WHERE echo_id = `))
      .append(sql`${e} LIMIT ${s}) AND ${marked}`);
  return [
    // each like's delete trigger takes its notification out of the author's group (and the count)
    { kind: "likes", limit: s, statement: slice("likes", "user_id") },
    // each undone repost leaves its reposter's followers' timelines through `unfanout`, as an undo does
    { kind: "reposts", limit: s, statement: slice("reposts", "id"), id: sql<string>`id` },
    { kind: "shares", limit: s, statement: slice("shares", "user_id") },
    { kind: "reports", limit: s, statement: slice("reports", "user_id") },
    // curation items: each one's trigger keeps the curation's size
    { kind: "curation items", limit: s, statement: slice("scroll_echos", "scroll_id") },
    // mentions in it, the reply's or the quote's notice (likes' and reposts' left with them above)
    { kind: "notifications", limit: s, statement: sql`DELETE FROM notifications WHERE rowid IN (SELECT rowid FROM notifications WHERE echo_id = ${e} LIMIT ${s}) AND ${marked}` },
  ];
}

const echoPurge: PurgeChain = {
  key: chainKey.echo,
  next: (echoId) => ({ type: "purgeEcho", echoId }),
  slices,
  exists: (e) => sql`EXISTS (SELECT 1 FROM echos WHERE id = ${e})`,
  told: (_, ids) => (ids.reposts ?? []).map((echoId): Change => ({ type: "unfanout", echoId })),
  last: (e) => {
    const own = echoDeleted(sql`${e}`);
    return [
      // an account's echo: its account's purge waits for it (auth/purge.server.ts) and hears it is gone
      select({ userId: sql<string>`e.author_id` }, sql`FROM echos e JOIN users u ON u.id = e.author_id WHERE e.id = ${e} AND u.deleted_at IS NOT NULL`),
      // its own deletion took its counts down in the request: put back what the triggers below take
      ...counts(e, 1, own),
      sql`DELETE FROM echos WHERE id = ${e} AND ${purging(e)}`,
      unmarkDeleted(markKey(e), DELETED_ECHO),
    ];
  },
  ended: {
    kind: "echos",
    told: (ended) => {
      const gone = ended.map((x) => x.subject);
      const accounts = [...new Set(ended.flatMap((x) => (x.results[0] as { userId: string }[]).map((r) => r.userId)))];
      // its Following rows go now that the row is gone (unfanout removes only a missing echo's)
      return [
        { type: "delete", echoIds: gone },
        ...gone.map((echoId): Change => ({ type: "unfanout", echoId })),
        ...accounts.map((userId): Change => ({ type: "purge", userId })),
      ];
    },
  },
};

/**
 * The `purgeEcho` steps of a queue batch (or the repair pass's replay): per echo one batch of
 * slices, the chain moved with them; when no slice was full, the echo's row goes with its mark
 * and its chain, and the Following timelines, the feed indexes (and its deleted account's purge,
 * if it waits) hear of it. Idempotent. Returns the rows deleted per kind.
 */
export async function consumeEchoPurges(app: Pick<AppContext, "env" | "ctx">, db: Db, changes: Change[]): Promise<Record<string, number>> {
  return runPurgeSteps(app, db, echoPurge, changes.flatMap((c) => (c.type === "purgeEcho" ? [c.echoId] : [])));
}
