// Every statement is a Drizzle query: its query builder for writes where it fits, its `sql`
// template where SQL says it better. A read names its columns as a Drizzle selection (`select`,
// `returning`), so its rows are typed and decoded from the schema (a renamed column fails to
// compile). Every page is one D1 batch (one round trip) on the request's D1 session (decision
// 017), with all of a request's statements coalesced into it (decision 007).
import { Column, fillPlaceholders, getTableName, Placeholder, SQL, sql } from "drizzle-orm";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "./context.server";

const dialect = new SQLiteAsyncDialect();

/** A flat selection: result key → schema column, or a typed `sql<T>` expression. */
export type Fields = Record<string, Column | SQL | SQL.Aliased>;

/** A statement's SQL text and bound values, as Drizzle renders it. */
type Query = { sql: string; params: unknown[] };

/** A statement whose column list is a selection: its rows are typed and decoded from the schema. */
export type Select<R> = { toQuery(): Query; decode(rows: Record<string, unknown>[]): R[] };

/** A Drizzle query builder (insert, update, delete): what it writes, not rows. */
export type Builder = { toSQL(): { sql: string; params: unknown[] } };

/** What a batch takes: a typed read, a bare template or a builder (writes). */
export type Statement = Select<unknown> | SQL | Builder;

/** The row type of a selection. */
export type RowOf<F extends Fields> = SelectResultFields<F>;

/** The rows a statement yields in a batch (a write's are not read). */
export type Result<S> = S extends Select<infer R> ? R[] : unknown[];

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * `"e"."created_at" AS "createdAt", …`: a selection as a column list for a template. Schema
 * columns are written as Drizzle writes a column in a template (its table or alias, then its
 * name), as one piece of text per run of columns: letting Drizzle walk every column of every
 * statement again on each request cost home about a tenth of its server time.
 */
export function columns(fields: Fields): SQL {
  const chunks: SQL[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length > 0) chunks.push(sql.raw(run.join(", ")));
    run = [];
  };
  for (const [key, field] of Object.entries(fields)) {
    if (field instanceof Column) {
      run.push(`${quote(getTableName(field.table))}.${quote(field.name)} AS ${quote(key)}`);
    } else {
      flush();
      chunks.push(sql`${field instanceof SQL.Aliased ? field.sql : field} AS ${sql.identifier(key)}`);
    }
  }
  flush();
  return sql.join(chunks, sql`, `);
}

// a column that keeps the driver's value as it is (text, a plain integer) needs no decoding pass
const decodes = (field: Fields[string]): field is Column => field instanceof Column && field.mapFromDriverValue !== Column.prototype.mapFromDriverValue;

function typed<F extends Fields>(fields: F, query: SQL): Select<SelectResultFields<F>> {
  const decoders = Object.entries(fields).flatMap(([key, field]) => (decodes(field) ? [[key, field] as const] : []));
  return {
    toQuery: () => dialect.sqlToQuery(query),
    decode(rows) {
      if (decoders.length > 0) {
        for (const row of rows) {
          for (const [key, column] of decoders) if (row[key] !== null) row[key] = column.mapFromDriverValue(row[key]);
        }
      }
      return rows as SelectResultFields<F>[];
    },
  };
}

/**
 * `SELECT <fields> <rest>`: the statement reads as SQL, its rows are typed from the selection
 * (a column's type and decoding — JSON text, booleans — come from the schema).
 */
export function select<F extends Fields>(fields: F, rest: SQL): Select<SelectResultFields<F>> {
  return typed(fields, sql`SELECT ${columns(fields)} ${rest}`);
}

/** `<write> RETURNING <fields>`: a write's returned rows, typed like `select`'s. */
export function returning<F extends Fields>(write: SQL, fields: F): Select<SelectResultFields<F>> {
  return typed(fields, sql`${write} RETURNING ${columns(fields)}`);
}

/** A Drizzle placeholder for each value name: what `prepared` statements are written with. */
const slotsOf = <K extends string>(names: readonly K[]) =>
  Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as Record<K, Placeholder<K>>;

/**
 * A read whose shape never changes, written once with Drizzle placeholders for its values
 * (`slots.viewerId`): Drizzle renders it to SQL once per isolate and each use only binds values,
 * as Drizzle's prepared queries do. For the statements every signed-in page runs (the session
 * check, the sidebar's scrolls, the bell): rendering them anew on each request was a measurable
 * part of a page's CPU (issue 15).
 */
export function prepared<const K extends string, R>(
  names: readonly K[],
  build: (slots: Record<K, Placeholder<K>>) => Select<R>,
): (values: Record<K, unknown>) => Select<R> {
  let made: { query: Query; decode: Select<R>["decode"] } | undefined;
  return (values) => {
    if (!made) {
      const statement = build(slotsOf(names));
      made = { query: statement.toQuery(), decode: statement.decode };
    }
    const { query, decode } = made;
    return { toQuery: () => ({ sql: query.sql, params: fillPlaceholders(query.params, values) }), decode };
  };
}

const BODY = "\u0000body\u0000";

/**
 * `prepared` for a read whose middle is SQL text made anew on each use with its values written
 * in (the feed engine's statements, decision 008): the rest — its column list, its joins — is
 * rendered once per isolate, and each use puts the text in and binds the placeholders' values.
 */
export function preparedAround<K extends string, R>(
  names: readonly K[],
  build: (slots: Record<K, Placeholder<K>>, body: SQL) => Select<R>,
): (values: Record<K, unknown>, body: string) => Select<R> {
  let made: { before: string; after: string; params: unknown[]; decode: Select<R>["decode"] } | undefined;
  return (values, body) => {
    if (!made) {
      const statement = build(slotsOf(names), sql.raw(BODY));
      const query = statement.toQuery();
      const [before, after, ...more] = query.sql.split(BODY);
      if (after === undefined || more.length > 0) throw new Error("preparedAround: the body must appear once");
      made = { before: before!, after, params: query.params, decode: statement.decode };
    }
    const { before, after, params, decode } = made;
    return { toQuery: () => ({ sql: before + body + after, params: fillPlaceholders(params, values) }), decode };
  };
}

const isSelect = (s: Statement): s is Select<unknown> => !(s instanceof SQL) && "decode" in s;

const queryOf = (statement: Statement): Query =>
  statement instanceof SQL ? dialect.sqlToQuery(statement) : isSelect(statement) ? statement.toQuery() : statement.toSQL();

/** A statement as a D1 prepared statement: its SQL and bound parameters as Drizzle builds them. */
export function toD1(db: Db, statement: Statement): D1PreparedStatement {
  const query = queryOf(statement);
  return db.$client.prepare(query.sql).bind(...query.params);
}

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

async function direct(db: Db, statements: Statement[]): Promise<unknown[]> {
  if (statements.length === 0) return [];
  const queries = statements.map(queryOf);
  const source = sharedReads(queries);
  const sent = source.flatMap((from, i) => (from === i ? [i] : []));
  const answers = await db.$client.batch<Record<string, unknown>>(sent.map((i) => db.$client.prepare(queries[i]!.sql).bind(...queries[i]!.params)));
  const rowsOf = new Map(sent.map((i, k) => [i, answers[k]!.results]));
  // decoding changes rows in place: a shared read's askers after the first each get a copy,
  // taken before any of them is decoded
  const rows = source.map((from, i) => (from === i ? rowsOf.get(i)! : rowsOf.get(from)!.map((row) => ({ ...row }))));
  return statements.map((s, i) => (isSelect(s) ? s.decode(rows[i]!) : rows[i]));
}

// ── Per-request batching ─────────────────────────────────────────────────────────────────────
// A read request's loaders (layout and page run in parallel) and the session check all queue
// their statements; one flush a macrotask later sends them as ONE D1 batch (one round trip).
// The session probe rides in the first flush; if the session is not valid, every queued read
// is refused with the request's error (401 for the API, a redirect to /login for pages), so no
// data is ever returned to a revoked or expired session. Writes never coalesce: they flush at
// once and their session is checked before they are sent.

type Row = Record<string, unknown>;
type Pending = { statements: Statement[]; resolve: (rows: unknown[]) => void; reject: (error: unknown) => void };
type Probe = {
  stmt: Select<Row>;
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
export function registerSessionProbe<R extends Row>(db: Db, stmt: Select<R>, onInvalid: () => unknown): Promise<R | null> {
  let state = requestDbs.get(db);
  if (!state) {
    state = { coalesce: false, queue: [], scheduled: false };
    requestDbs.set(db, state);
  }
  if (state.probe) return state.probe.promise as Promise<R | null>;
  let settle!: (row: Row | null) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<Row | null>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  promise.catch(() => undefined);
  state.probe = { stmt, onInvalid, sent: false, promise, settle, fail };
  return promise as Promise<R | null>;
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
  if (!probe.sent) await enqueue(db, []).catch(() => undefined);
  try {
    if (await probe.promise) return null;
    const failure = probe.onInvalid();
    return failure ? { failure } : null;
  } catch (error) {
    return { failure: error };
  }
}
