// Counts what a request costs D1: round trips (each batch or statement call) and rows read
// (from D1's result metadata). The benchmark and the budget tests read it from the
// `Server-Timing` header, which the worker sends only when EXPOSE_D1_STATS is "1".
import type { D1Client, D1Stats } from "./context.server";

type Meta = { rows_read?: number; rows_written?: number };

function record(stats: D1Stats, metas: (Meta | undefined)[]) {
  stats.roundTrips++;
  for (const m of metas) {
    stats.rowsRead += m?.rows_read ?? 0;
    stats.rowsWritten += m?.rows_written ?? 0;
  }
}

/** Wrap prepared statements in place (they stay real D1 statements, so batch() accepts them). */
function instrumentStatement(stmt: D1PreparedStatement, stats: D1Stats): D1PreparedStatement {
  const s = stmt as unknown as Record<string, unknown>;
  const bind = stmt.bind.bind(stmt);
  const all = stmt.all.bind(stmt);
  const run = stmt.run.bind(stmt);
  const first = stmt.first.bind(stmt);
  const raw = stmt.raw.bind(stmt);
  s.bind = (...values: unknown[]) => instrumentStatement(bind(...values), stats);
  s.all = async () => {
    const r = await all();
    record(stats, [r.meta]);
    return r;
  };
  s.run = async () => {
    const r = await run();
    record(stats, [r.meta]);
    return r;
  };
  // first() and raw() return no metadata: they count as round trips only
  s.first = (async (col?: string) => {
    stats.roundTrips++;
    return col === undefined ? first() : first(col);
  });
  s.raw = (async (options?: { columnNames?: boolean }) => {
    stats.roundTrips++;
    return raw(options as { columnNames: true });
  });
  return stmt;
}

export function instrumentD1(db: D1Client, stats: D1Stats): D1Client {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => instrumentStatement(target.prepare(query), stats);
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          record(stats, results.map((r) => r.meta));
          return results;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Fault injection for the reliability tests: when the worker runs with FAULT_INJECTION="1" (the
 * test server only; "0" in wrangler.toml), a request carrying `X-Echo-Fault: d1` sees every D1
 * call fail as if the database were unreachable.
 */
export function failingD1(db: D1Client): D1Client {
  const fail = () => Promise.reject(new Error("D1_ERROR: Network connection lost (injected fault)"));
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "batch" || prop === "exec") return fail;
      if (prop === "prepare") {
        return (query: string) => {
          const stmt = target.prepare(query) as unknown as Record<string, unknown>;
          const bind = (stmt.bind as (...v: unknown[]) => unknown).bind(stmt);
          for (const m of ["all", "run", "first", "raw"]) stmt[m] = fail;
          stmt.bind = (...v: unknown[]) => {
            const bound = bind(...v) as Record<string, unknown>;
            for (const m of ["all", "run", "first", "raw"]) bound[m] = fail;
            return bound;
          };
          return stmt;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** KV that fails every call (fault injection, `X-Echo-Fault: kv`). */
export function failingKV(): KVNamespace {
  const fail = () => Promise.reject(new Error("KV GET failed: injected fault"));
  return { get: fail, getWithMetadata: fail, put: fail, delete: fail, list: fail } as unknown as KVNamespace;
}

/**
 * Set (to "1") by an answer whose body reads D1 while it streams (the export): the worker then
 * says in `Server-Timing` that its counts stop where the body starts, and drops this header.
 */
export const STREAMED_D1_HEADER = "X-Echo-D1-Streamed";

/** The `Server-Timing` value of a request's D1 counts; `streamed`: the body reads on (see above). */
export function d1Timing(stats: D1Stats, streamed: boolean): string {
  const counts = `rt=${stats.roundTrips} rows=${stats.rowsRead} written=${stats.rowsWritten}`;
  return streamed
    ? `d1;desc="${counts} before the body", d1-body;desc="streamed: the body's own D1 cost is its last member, d1"`
    : `d1;desc="${counts}"`;
}
