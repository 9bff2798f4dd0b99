// Raw SQL for the hot read paths, batched straight on the D1 binding: every page is one
// db.batch() (one round trip), with statements we can read and index for. Values are always
// bound parameters; only fragments written here are spliced.
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

/** Run statements in one D1 batch (one round trip, one transaction); rows of each. */
export async function batchAll<R extends unknown[][]>(db: Db, statements: Stmt[]): Promise<R> {
  const d1 = db.$client;
  const results = await d1.batch(statements.map((s) => d1.prepare(s.sql).bind(...s.params)));
  return results.map((r) => r.results) as R;
}

export function prepare(db: Db, statement: Stmt): D1PreparedStatement {
  return db.$client.prepare(statement.sql).bind(...statement.params);
}
