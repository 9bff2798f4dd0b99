// Deleting one echo (issue 28, docs/decisions/032-bounded-deletes.md "One echo"). As one cascade
// the delete read and wrote every like, share, repost, report and notification of the echo in the
// request: an echo with 5,000 likes read 85,011 rows and wrote 60,016. Now the request deletes an
// echo with few likes as before (DELETE_INLINE) and only marks a bigger one in the moderation set
// (it leaves every list, its author's views included, at once) and starts its `echo:<id>` chain; each `purgeEcho` step deletes a slice of each kind of its rows, and the last
// deletes the echo's row (tags, edits and what came in between cascade with it: a handful of
// rows), so the triggers keep every count exact (tag counts, the parent's replies, the quoted
// echo's quotes, notification groups) and an echo with replies leaves its tombstone.
import { forbidden, notFound } from "../shared/index";
import { requireEchoId } from "./echo.server";
import {
  batch, DELETED_ECHO, echoDeleted, markDeleted, returning, select, sendChanges, sql, startChain, tables, unmarkDeleted,
  type AppContext, type Change, type Db, type SQL,
} from "../shared/index.server";
import { publishDelete } from "./live.server";

/** Rows of each kind (likes, reposts, notifications…) one step deletes. */
export const ECHO_PURGE_SLICE = 200;

export const echoPurgeChain = (echoId: string) => `echo:${echoId}`;
const markKey = (echoId: string) => `e:${echoId}`;

/**
 * An echo with at most this many likes, reposts and shares is deleted in the request, as before
 * (its cascade is a few dozen rows: within the request's budget, and every count and tombstone
 * follows at once); one with more is marked and purged by its chain.
 */
export const DELETE_INLINE = 5;

/**
 * Author only; one batch: a small echo's DELETE, else its chain and its mark — each only while
 * the echo is the viewer's and not already deleted — and a read that says why nothing happened.
 * ≤ 2 round trips and ≤ 200 rows read whatever the echo's likes.
 */
export async function deleteEcho(app: AppContext, viewerId: string, id: string): Promise<void> {
  requireEchoId(id);
  const now = Date.now();
  const owned = sql`EXISTS (SELECT 1 FROM echos WHERE id = ${id} AND author_id = ${viewerId}) AND NOT ${echoDeleted(sql`${id}`)}`;
  const [direct, started, , left] = await batch(app.db, [
    returning(
      sql`DELETE FROM echos WHERE id = ${id} AND author_id = ${viewerId} AND likes_count + reposts_count + shares_count <= ${DELETE_INLINE} AND NOT ${echoDeleted(sql`${id}`)}`,
      { id: tables.echos.id },
    ),
    // (after a direct delete the echo is gone and `owned` fails: no chain)
    returning(startChain(echoPurgeChain(id), { type: "purgeEcho", echoId: id }, now, owned), { key: tables.streamChains.key }),
    markDeleted(markKey(id), DELETED_ECHO, sql`EXISTS (SELECT 1 FROM stream_chains WHERE key = ${echoPurgeChain(id)} AND updated_at = ${now})`),
    select({ authorId: sql<string>`e.author_id`, deleted: sql<number>`${echoDeleted("e.id")}` }, sql`FROM echos e WHERE e.id = ${id}`),
  ]);
  if (direct[0] || started[0]) {
    // the feed indexes drop it now (a marked echo's pages test the mark anyway); the purge follows
    sendChanges(app, [{ type: "delete", echoIds: [id] }, direct[0] ? { type: "unfanout", echoId: id } : { type: "purgeEcho", echoId: id }]);
    // open pages drop it live (decision 016), whichever way it goes
    publishDelete(app, id);
    return;
  }
  const row = left[0];
  if (row && row.deleted !== 1 && row.authorId !== viewerId) throw forbidden("Only the author can delete this echo");
  throw notFound("Echo not found");
}

/** One step's deletions for echo `e`, each at most its slice, each only while the echo is marked. */
function slices(e: string): { kind: string; statement: SQL; id?: SQL<string> }[] {
  const marked = echoDeleted(sql`${e}`);
  const s = ECHO_PURGE_SLICE;
  // a slice by the echo's own index (the rows' keys after echo_id name them)
  const slice = (table: string, key: string) =>
    sql.raw(`DELETE FROM ${table} WHERE echo_id = `).append(sql`${e}`).append(sql.raw(` AND (${key}) IN (SELECT ${key} FROM ${table} WHERE echo_id = `))
      .append(sql`${e} LIMIT ${s}) AND ${marked}`);
  return [
    // each like's delete trigger takes its notification out of the author's group (and the count)
    { kind: "likes", statement: slice("likes", "user_id") },
    // each undone repost leaves its reposter's followers' timelines through `unfanout`, as an undo does
    { kind: "reposts", statement: slice("reposts", "id"), id: sql<string>`id` },
    { kind: "shares", statement: slice("shares", "user_id") },
    { kind: "reports", statement: slice("reports", "user_id") },
    // curation items: each one's trigger keeps the curation's size
    { kind: "curation items", statement: slice("scroll_echos", "scroll_id") },
    // mentions in it, the reply's or the quote's notice (likes' and reposts' left with them above)
    { kind: "notifications", statement: sql`DELETE FROM notifications WHERE rowid IN (SELECT rowid FROM notifications WHERE echo_id = ${e} LIMIT ${s}) AND ${marked}` },
  ];
}

/**
 * The `purgeEcho` steps of a queue batch (or the repair pass's replay): per echo one batch of
 * slices, the chain moved with them; when no slice was full, the echo's row goes with its mark
 * and its chain, and the Following timelines and feed indexes hear of it. Idempotent: a step
 * repeated deletes what is left. Returns the rows deleted per kind.
 */
export async function consumeEchoPurges(app: Pick<AppContext, "env" | "ctx">, db: Db, changes: Change[]): Promise<Record<string, number>> {
  const echoIds = [...new Set(changes.flatMap((c) => (c.type === "purgeEcho" ? [c.echoId] : [])))];
  const deleted: Record<string, number> = {};
  const next: Change[] = [];
  const done: string[] = [];
  for (const e of echoIds) {
    const steps = slices(e);
    const results = (await batch(db, [
      ...steps.map((step) => returning(step.statement, { id: step.id ?? sql<string>`NULL` })),
      sql`UPDATE stream_chains SET updated_at = ${Date.now()} WHERE key = ${echoPurgeChain(e)}`,
    ])) as { id: string | null }[][];
    let full = false;
    steps.forEach((step, i) => {
      const rows = results[i]!;
      deleted[step.kind] = (deleted[step.kind] ?? 0) + rows.length;
      if (rows.length >= ECHO_PURGE_SLICE) full = true;
      if (step.kind === "reposts") next.push(...rows.flatMap((r): Change[] => (r.id ? [{ type: "unfanout", echoId: r.id }] : [])));
    });
    if (full) next.push({ type: "purgeEcho", echoId: e });
    else done.push(e);
  }
  if (done.length > 0) {
    const last = (await batch(db, [
      ...done.flatMap((e) => [
        returning(sql`DELETE FROM echos WHERE id = ${e} AND ${echoDeleted(sql`${e}`)}`, { id: tables.echos.id }),
        sql`DELETE FROM stream_chains WHERE key = ${echoPurgeChain(e)}`,
        unmarkDeleted(markKey(e), DELETED_ECHO),
      ]),
    ])) as unknown[][];
    const gone = done.filter((_, i) => (last[3 * i] as unknown[]).length > 0);
    deleted.echos = gone.length;
    // its Following rows go now that the row is gone (unfanout removes only a missing echo's);
    // a step for an echo never marked (a stray message) deleted nothing and says nothing
    if (gone.length > 0) next.push({ type: "delete", echoIds: gone }, ...gone.map((echoId): Change => ({ type: "unfanout", echoId })));
  }
  sendChanges(app, next);
  return deleted;
}
