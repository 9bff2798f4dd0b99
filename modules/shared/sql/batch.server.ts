// The executor: what stays home-made because neither D1 nor Drizzle does it (decision 031).
// Drizzle's `db.batch` still throws on a raw `sql` statement with parameters (drizzle-orm 0.45:
// `batch.server.test.ts` holds it), and no batch API coalesces the statements of a request's
// loaders into one round trip (decision 007). It knows nothing of sessions: the session check is
// auth's, riding in the same batch as an ordinary statement.
import type { Db } from "../context.server";
import { queryOf, rowsOf, type Query, type Result, type Statement } from "./statement.server";

const isRead = (query: Query) => /^\s*SELECT\b/i.test(query.sql);

/**
 * Which statement of the batch each one's rows come from: itself, or an identical read sent
 * earlier in it. Only in a batch of reads alone (a batch is one transaction, so two identical
 * reads with no write between them see the same rows): the loaders of one page often ask the
 * same question (home's "does the viewer follow anyone?" twice), and each statement sent costs
 * the database a parse and a round of its own.
 */
export function sharedReads(queries: readonly Query[]): number[] {
  const source = queries.map((_, i) => i);
  if (!queries.every(isRead)) return source;
  const seen = new Map<string, number>();
  queries.forEach((query, i) => {
    // values are compared by type and text; a blob (an object) is never compared
    if (query.params.some((v) => typeof v === "object" && v !== null)) return;
    const key = JSON.stringify([query.sql, ...query.params.map((v) => [typeof v, String(v)])]);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else source[i] = first;
  });
  return source;
}

/** A statement as a D1 prepared statement: its SQL and bound parameters as Drizzle builds them. */
export function toD1(db: Db, statement: Statement): D1PreparedStatement {
  const query = queryOf(statement);
  return db.$client.prepare(query.sql).bind(...query.params);
}

async function direct(db: Db, statements: Statement[]): Promise<unknown[]> {
  if (statements.length === 0) return [];
  const queries = statements.map(queryOf);
  const source = sharedReads(queries);
  const sent = source.flatMap((from, i) => (from === i ? [i] : []));
  const answers = await db.$client.batch<Record<string, unknown>>(sent.map((i) => db.$client.prepare(queries[i]!.sql).bind(...queries[i]!.params)));
  const answered = new Map(sent.map((i, k) => [i, answers[k]!.results]));
  // decoding changes rows in place: a shared read's askers after the first each get a copy,
  // taken before any of them is decoded
  const rows = source.map((from, i) => (from === i ? answered.get(i)! : answered.get(from)!.map((row) => ({ ...row }))));
  return statements.map((s, i) => rowsOf(s, rows[i]!));
}

// ── Per-request batching ─────────────────────────────────────────────────────────────────────
// A read request's loaders (layout and page run in parallel) and its session check all queue
// their statements; one flush a macrotask later sends them as ONE D1 batch (one round trip).
// Writes never coalesce: they flush at once.

type Pending = { statements: Statement[]; resolve: (rows: unknown[]) => void; reject: (error: unknown) => void };
type RequestDb = { coalesce: boolean; queue: Pending[]; scheduled: boolean; holds: Set<Promise<void>> };

const requestDbs = new WeakMap<object, RequestDb>();

/** Mark a request's db: reads coalesce into shared batches (GET), writes do not. */
export function configureRequestDb(db: Db, options: { coalesce: boolean }) {
  requestDbs.set(db, { coalesce: options.coalesce, queue: [], scheduled: false, holds: new Set() });
}

/**
 * Hold a coalescing request's next batch until `work` settles: for a read that must learn
 * something elsewhere (a hint in KV) before it can say which statements it needs, so that they
 * still ride in the request's first round trip beside its session check (decision 020, "A cold
 * isolate's first page"). `work` should end once its statements are queued. No effect on a db
 * that does not coalesce (each batch is its own round trip there anyway).
 */
export function holdBatch(db: Db, work: Promise<unknown>): void {
  const state = requestDbs.get(db);
  if (!state?.coalesce) return;
  const hold = work.then(
    () => undefined,
    () => undefined,
  );
  state.holds.add(hold);
  void hold.then(() => state.holds.delete(hold));
}

async function flush(db: Db, state: RequestDb) {
  // (a statement queued while a hold settles rides in this batch too)
  while (state.holds.size > 0) await Promise.all(state.holds);
  state.scheduled = false;
  const items = state.queue.splice(0);
  try {
    const results = await direct(db, items.flatMap((i) => i.statements));
    let offset = 0;
    for (const item of items) {
      item.resolve(results.slice(offset, offset + item.statements.length));
      offset += item.statements.length;
    }
  } catch (error) {
    for (const item of items) item.reject(error);
  }
}

function enqueue(db: Db, statements: Statement[]): Promise<unknown[]> {
  const state = requestDbs.get(db);
  if (!state) return direct(db, statements);
  return new Promise<unknown[]>((resolve, reject) => {
    state.queue.push({ statements, resolve, reject });
    if (!state.coalesce) {
      void flush(db, state);
    } else if (!state.scheduled) {
      state.scheduled = true;
      setTimeout(() => void flush(db, state), 0);
    }
  });
}

/**
 * Run statements in one D1 batch (one round trip, one transaction) and return each one's rows,
 * typed from the statements. Within a request, reads issued together share a batch (see above).
 */
export function batch<const S extends readonly Statement[]>(db: Db, statements: S): Promise<{ -readonly [K in keyof S]: Result<S[K]> }> {
  return enqueue(db, [...statements]) as Promise<{ -readonly [K in keyof S]: Result<S[K]> }>;
}
