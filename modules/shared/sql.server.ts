// Raw SQL for the hot read paths, batched straight on the request's D1 session (decision 017):
// every page is one db.batch() (one round trip), with statements we can read and index for.
// Values are always bound parameters; only fragments written here are spliced.
import type { Db } from "./context.server";

export type Stmt = { sql: string; params: unknown[] };

/** A tagged template: `sql\`... ${value}\`` binds value; nest Stmt values to compose. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Stmt {
  let text = strings[0] ?? "";
  const params: unknown[] = [];
  values.forEach((value, i) => {
    if (value && typeof value === "object" && "sql" in value && "params" in value) {
      const inner = value as Stmt;
      text += inner.sql.replace(/\?(\d+)/g, (_, n) => `?${Number(n) + params.length}`);
      params.push(...inner.params);
    } else {
      params.push(value);
      text += `?${params.length}`;
    }
    text += strings[i + 1] ?? "";
  });
  return { sql: text, params };
}

export const raw = (text: string): Stmt => ({ sql: text, params: [] });

export function join(parts: Stmt[], separator: string): Stmt {
  return parts.reduce<Stmt>((acc, part, i) => (i === 0 ? part : sql`${acc}${raw(separator)}${part}`), raw(""));
}

async function direct(db: Db, statements: Stmt[]): Promise<unknown[][]> {
  if (statements.length === 0) return [];
  const d1 = db.$client;
  const results = await d1.batch(statements.map((s) => d1.prepare(s.sql).bind(...s.params)));
  return results.map((r) => r.results);
}

// ── Per-request batching ─────────────────────────────────────────────────────────────────────
// A read request's loaders (layout and page run in parallel) and the session check all queue
// their statements; one flush a macrotask later sends them as ONE D1 batch (one round trip).
// The session probe rides in the first flush; if the session is not valid, every queued read
// is refused with the request's error (401 for the API, a redirect to /login for pages), so no
// data is ever returned to a revoked or expired session. Writes never coalesce: they flush at
// once and their session is checked before they are sent.

type Row = Record<string, unknown>;
type Pending = { statements: Stmt[]; resolve: (rows: unknown[][]) => void; reject: (error: unknown) => void };
type Probe = {
  stmt: Stmt;
  onInvalid: () => unknown;
  sent: boolean;
  promise: Promise<Row | null>;
  settle: (row: Row | null) => void;
  fail: (error: unknown) => void;
};
type RequestDb = { coalesce: boolean; queue: Pending[]; scheduled: boolean; probe?: Probe };

const requestDbs = new WeakMap<object, RequestDb>();

/** Mark a request's db: reads coalesce into shared batches (GET), writes do not. */
export function configureRequestDb(db: Db, options: { coalesce: boolean }) {
  requestDbs.set(db, { coalesce: options.coalesce, queue: [], scheduled: false });
}

/**
 * Register the session check of this request (once): the next flush carries it. Resolves to
 * its row, or null when the session is not valid. `onInvalid` is asked (at flush time) what the
 * request's queued reads get instead then; null lets them run (no route needs a viewer).
 */
export function registerSessionProbe(db: Db, stmt: Stmt, onInvalid: () => unknown): Promise<Row | null> {
  let state = requestDbs.get(db);
  if (!state) {
    state = { coalesce: false, queue: [], scheduled: false };
    requestDbs.set(db, state);
  }
  if (state.probe) return state.probe.promise;
  let settle!: (row: Row | null) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<Row | null>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  promise.catch(() => undefined);
  state.probe = { stmt, onInvalid, sent: false, promise, settle, fail };
  return promise;
}

async function flush(db: Db, state: RequestDb) {
  state.scheduled = false;
  const items = state.queue.splice(0);
  const probe = state.probe && !state.probe.sent ? state.probe : null;
  if (probe) probe.sent = true;
  const statements = [...(probe ? [probe.stmt] : []), ...items.flatMap((i) => i.statements)];
  try {
    const results = await direct(db, statements);
    let offset = 0;
    if (probe) {
      probe.settle(((results[0] ?? []) as Row[])[0] ?? null);
      offset = 1;
    }
    // onInvalid() is null when no route needs a viewer (a guest page): the reads go on
    const error = state.probe && !(await state.probe.promise) ? state.probe.onInvalid() : null;
    if (error) {
      for (const item of items) item.reject(error);
      return;
    }
    for (const item of items) {
      item.resolve(results.slice(offset, offset + item.statements.length));
      offset += item.statements.length;
    }
  } catch (error) {
    probe?.fail(error);
    for (const item of items) item.reject(error);
  }
}

/**
 * Run statements in one D1 batch (one round trip, one transaction) and return the rows of each.
 * Within a request, reads issued together share a batch (see above).
 */
export function batchAll<R extends unknown[][]>(db: Db, statements: Stmt[]): Promise<R> {
  const state = requestDbs.get(db);
  if (!state) return direct(db, statements) as Promise<R>;
  return new Promise<R>((resolve, reject) => {
    state.queue.push({ statements, resolve: resolve as (rows: unknown[][]) => void, reject });
    if (!state.coalesce) {
      void flush(db, state);
    } else if (!state.scheduled) {
      state.scheduled = true;
      setTimeout(() => void flush(db, state), 0);
    }
  });
}

export function prepare(db: Db, statement: Stmt): D1PreparedStatement {
  return db.$client.prepare(statement.sql).bind(...statement.params);
}

/**
 * After a request's loaders or action ran: make sure its session check ran too (a read served
 * only from KV issues no batch) and held. Returns what to answer instead when it did not: the
 * request's invalid-session answer, or the storage error that stopped the check (null when the
 * session held, or when no route needed one: a stale cookie on a guest page is no cookie).
 */
export async function confirmSession(db: Db): Promise<{ failure: unknown } | null> {
  const state = requestDbs.get(db);
  const probe = state?.probe;
  if (!probe) return null;
  if (!probe.sent) await batchAll(db, []).catch(() => undefined);
  try {
    if (await probe.promise) return null;
    const failure = probe.onInvalid();
    return failure ? { failure } : null;
  } catch (error) {
    return { failure: error };
  }
}
