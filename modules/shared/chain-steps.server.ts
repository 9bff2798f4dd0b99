// One runner for the change stream's purge chains (decision 032): an echo's (`echo:<id>`) and an
// account's (`purge:<id>`) removal take the same steps — one batch per subject that deletes a
// slice of each kind of its rows and moves its chain (atomic: the chain never says a slice is done
// that is not); another step when a slice came back full; else a last batch that removes the
// subject's row and ends the chain (only once the row is gone, so a subject still waiting on
// something keeps its chain for the repair pass). What each module knows is only its slices and
// its last statements; the mechanics, and the messages they send, live here once.
import { sql, type SQL } from "drizzle-orm";
import type { Change } from "./change-stream.server";
import { sendChanges } from "./change-stream.server";
import type { AppContext, Db } from "./context.server";
import { batch } from "./sql/batch.server";
import { returning, type Statement } from "./sql/statement.server";

/** The chain keys in `stream_chains`, in one place (a module may start another's chain: an account's purge hands its big echos to theirs). */
/**
 * An echo with at most this many likes, reposts and shares is deleted in one statement with its
 * cascade (a few dozen rows): by its own deletion's request, or by its account's purge step. One
 * with more gets its own `echo:<id>` chain, whose steps delete its rows a slice at a time.
 */
export const DELETE_INLINE = 5;

/**
 * Whether echo row `alias` is small enough to delete with its cascade in one statement: at most
 * DELETE_INLINE likes, reposts and shares (their counters), and at most DELETE_INLINE curation
 * items and reports each (no counter: each test stops at its sixth index entry, ≤ 6 rows read).
 */
export const inlineDeletable = (alias: string): SQL =>
  sql.raw(`${alias}.likes_count + ${alias}.reposts_count + ${alias}.shares_count <= ${DELETE_INLINE}
    AND NOT EXISTS (SELECT 1 FROM scroll_echos WHERE echo_id = ${alias}.id LIMIT 1 OFFSET ${DELETE_INLINE})
    AND NOT EXISTS (SELECT 1 FROM reports WHERE echo_id = ${alias}.id LIMIT 1 OFFSET ${DELETE_INLINE})`);

export const chainKey = {
  echo: (echoId: string) => `echo:${echoId}`,
  account: (userId: string) => `purge:${userId}`,
};

/**
 * One kind of a subject's rows: a statement deleting at most `limit` of them, `RETURNING` `id` when
 * the kind's ids are told on. A `probe` deletes nothing (it is not counted): it only says, by
 * coming back full, that another step must follow.
 */
export type ChainSlice = { kind: string; limit: number; statement: SQL; id?: SQL<string>; probe?: true };

export type PurgeChain = {
  key: (subject: string) => string;
  /** the message of a subject's next step */
  next: (subject: string) => Change;
  /** one step's slices, each guarded so a step for a subject not being removed deletes nothing */
  slices: (subject: string) => ChainSlice[];
  /** whether the subject's row still exists: the chain ends only once it does not */
  exists: (subject: string) => SQL;
  /** messages about what one step deleted (the ids of each kind that returns them) */
  told?: (subject: string, ids: Record<string, string[]>) => Change[];
  /** the last step's statements (they remove the subject's row), run in one batch with the chain's end */
  last: (subject: string) => Statement[];
  /** the kind the last step's removals count as, and the messages they send (`results`: each ended subject's last statements' rows) */
  ended: { kind: string; told: (ended: { subject: string; results: unknown[][] }[]) => Change[] };
};

/**
 * The steps of `chain` for `subjects` (a queue batch's, or the repair pass's replay): per subject
 * one batch of its slices and the chain moved; then one batch for every subject none of whose
 * slices was full; the messages after. Idempotent: a repeated step deletes what is left, a step
 * after the end ends nothing. Returns the rows deleted per kind.
 */
export async function runPurgeSteps(app: Pick<AppContext, "env" | "ctx">, db: Db, chain: PurgeChain, subjects: string[]): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  const next: Change[] = [];
  const finishing: string[] = [];
  for (const subject of [...new Set(subjects)]) {
    const slices = chain.slices(subject);
    const results = (await batch(db, [
      // (a probe is a SELECT of `id`: its rows come back as they are)
      ...slices.map((slice) => (slice.probe ? slice.statement : returning(slice.statement, { id: slice.id ?? sql<string>`NULL` }))),
      sql`UPDATE stream_chains SET updated_at = ${Date.now()} WHERE key = ${chain.key(subject)}`,
    ])) as { id: string | null }[][];
    let full = false;
    const ids: Record<string, string[]> = {};
    slices.forEach((slice, i) => {
      const rows = results[i]!;
      if (!slice.probe) deleted[slice.kind] = (deleted[slice.kind] ?? 0) + rows.length;
      if (rows.length >= slice.limit) full = true;
      if (slice.id) ids[slice.kind] = rows.flatMap((r) => (r.id ? [r.id] : []));
    });
    if (chain.told) next.push(...chain.told(subject, ids));
    if (full) next.push(chain.next(subject));
    else finishing.push(subject);
  }
  if (finishing.length > 0) {
    const per = finishing.map((subject) => [
      ...chain.last(subject),
      returning(sql`DELETE FROM stream_chains WHERE key = ${chain.key(subject)} AND NOT ${chain.exists(subject)}`, { key: sql<string>`key` }),
    ]);
    const results = (await batch(db, per.flat())) as unknown[][];
    const ended: { subject: string; results: unknown[][] }[] = [];
    let at = 0;
    finishing.forEach((subject, i) => {
      const own = results.slice(at, at + per[i]!.length);
      at += per[i]!.length;
      // the chain's row went in this batch: this subject's removal happened now (a repeat finds none)
      if (own[own.length - 1]!.length > 0) ended.push({ subject, results: own.slice(0, -1) });
    });
    deleted[chain.ended.kind] = (deleted[chain.ended.kind] ?? 0) + ended.length;
    if (ended.length > 0) next.push(...chain.ended.told(ended));
  }
  sendChanges(app, next);
  return deleted;
}
