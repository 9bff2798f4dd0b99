// What a statement is (decision 019, and 031 for when the builder, when a template): a Drizzle
// query builder, a bare `sql` template, or a read whose column list is a Drizzle selection
// (`select`, `returning`), so its rows are typed and decoded from the schema (a renamed column
// fails to compile).
import { Column, getTableName, SQL, sql } from "drizzle-orm";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import { QueryBuilder, SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { decoderOf, type Fields } from "./decode.server";

export const dialect = new SQLiteAsyncDialect();

/** Drizzle's select builder without a database: for reads built once (`prepared`) or sent by `batch`. */
export const qb = new QueryBuilder();

export type { Fields };

/** A string as an SQL literal: quotes doubled, so no value can end the literal (for text written into a statement, not bound). */
export const lit = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * A template's SQL text, for a test kept once as a template (its values bound) and also written
 * into statements built as text: the template given its values as literals (`sql.raw(lit(…))`),
 * so nothing is bound (a bound value here would be lost: it throws).
 */
export function textOf(template: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(template);
  if (params.length > 0) throw new Error("textOf: a value is bound, not written as a literal");
  return text;
}

/** A statement's SQL text and bound values, as Drizzle renders it. */
export type Query = { sql: string; params: unknown[] };

/** A statement whose column list is a selection: its rows are typed and decoded from the schema. */
export type Select<R> = { toQuery(): Query; decode(rows: Record<string, unknown>[]): R[] };

/** A Drizzle query builder: a write (insert, update, delete) in a batch; a read goes through `built()`. */
export type Builder = { toSQL(): { sql: string; params: unknown[] } };

/** What a batch takes: a typed read, a bare template or a builder. */
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

function typed<F extends Fields>(fields: F, query: SQL): Select<SelectResultFields<F>> {
  return { toQuery: () => dialect.sqlToQuery(query), decode: decoderOf<SelectResultFields<F>>(fields) };
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

/**
 * A Drizzle builder read (`db.select(fields).from(…)…`) as a typed statement for `batch`: its rows
 * are typed and decoded from the same selection. The builder writes its column list without
 * aliases, so D1's rows are keyed by column names; they are taken by position, as Drizzle's own
 * `db.batch` takes them. Two columns of one name would share a key and shift the rest: that
 * throws (name one with `sql<T>\`…\``), never decodes wrong.
 */
export function built<F extends Fields>(fields: F, query: Builder): Select<SelectResultFields<F>> {
  const keys = Object.keys(fields);
  const decode = decoderOf<SelectResultFields<F>>(fields);
  return {
    toQuery: () => query.toSQL(),
    decode(rows) {
      const keyed = rows.map((row) => {
        const values = Object.values(row);
        if (values.length !== keys.length) throw new Error(`built(): ${keys.length} fields but ${values.length} columns (two of one name?)`);
        return Object.fromEntries(keys.map((key, i) => [key, values[i]]));
      });
      return decode(keyed);
    },
  };
}

const isSelect = (s: Statement): s is Select<unknown> => !(s instanceof SQL) && "decode" in s;

/** A statement's SQL and bound parameters as Drizzle builds them. */
export const queryOf = (statement: Statement): Query =>
  statement instanceof SQL ? dialect.sqlToQuery(statement) : isSelect(statement) ? statement.toQuery() : statement.toSQL();

/** Its rows as the statement yields them: a selection's decoded, anything else's as D1 gave them. */
export const rowsOf = (statement: Statement, rows: Record<string, unknown>[]): unknown[] => (isSelect(statement) ? statement.decode(rows) : rows);
