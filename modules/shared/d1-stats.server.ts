// Counts what a request costs D1: round trips (each batch or statement call) and rows read
// (from D1's result metadata). The benchmark and the budget tests read it from the
// `Server-Timing` header, which the worker sends only when EXPOSE_D1_STATS is "1".
import type { D1Client, D1Stats, Db } from "./context.server";

type Meta = { rows_read?: number; rows_written?: number };

/** A request's counts and how many of its D1 calls are on their way (sent, not yet answered). */
type Spent = { stats: D1Stats; inFlight: number };

/** The counts of each instrumented client (every request's, verticals/app.ts), by the client. */
const spentBy = new WeakMap<object, Spent>();

/**
 * What the request behind `db` has cost D1 so far, measured (its round trips answered, the rows
 * D1 says they read) and how many calls are still on their way: for a page that decides, after
 * its first round trip, whether a second one fits the budget (a filling round trip, decision
 * 034). null for a client nothing counts (the cron's, a test's bare binding).
 */
export function requestSpent(db: Db): { roundTrips: number; rowsRead: number; inFlight: number } | null {
  const spent = spentBy.get(db.$client);
  return spent ? { roundTrips: spent.stats.roundTrips, rowsRead: spent.stats.rowsRead, inFlight: spent.inFlight } : null;
}

/** The row budget of a request (≤ 200 rows read). */
export const ROW_BUDGET = 200;

/**
 * Rows a second, filling statement may read (decision 034; the lists' fill, decision 026): the
 * budget itself (ROW_BUDGET, not PAGE_ROW_TARGET — the first round trip's rows are D1's own
 * count, not a plan) less what the request's one round trip read. null when the request has used
 * more than one round trip or has one on its way (another loader of the same document), when
 * nothing counts it (the cron, a test's bare binding), or when the var `off` is "0" (a bench's
 * before: FEED_FILL for feeds, LIST_FILL for the windowed lists).
 */
export function rowsLeftAfterOneTrip(app: { db: Db; env: object }, off: "FEED_FILL" | "LIST_FILL"): number | null {
  if ((app.env as Record<string, string | undefined>)[off] === "0") return null;
  const spent = requestSpent(app.db);
  if (!spent || spent.roundTrips !== 1 || spent.inFlight !== 0) return null;
  return ROW_BUDGET - spent.rowsRead;
}

/** `call` counted as on its way until it settles. */
async function sent<T>(spent: Spent, call: () => Promise<T>): Promise<T> {
  spent.inFlight++;
  try {
    return await call();
  } finally {
    spent.inFlight--;
  }
}

function record(stats: D1Stats, metas: (Meta | undefined)[]) {
  stats.roundTrips++;
  for (const m of metas) {
    stats.rowsRead += m?.rows_read ?? 0;
    stats.rowsWritten += m?.rows_written ?? 0;
  }
}

/** Wrap prepared statements in place (they stay real D1 statements, so batch() accepts them). */
function instrumentStatement(stmt: D1PreparedStatement, spent: Spent): D1PreparedStatement {
  const { stats } = spent;
  const s = stmt as unknown as Record<string, unknown>;
  const bind = stmt.bind.bind(stmt);
  const all = stmt.all.bind(stmt);
  const run = stmt.run.bind(stmt);
  const first = stmt.first.bind(stmt);
  const raw = stmt.raw.bind(stmt);
  s.bind = (...values: unknown[]) => instrumentStatement(bind(...values), spent);
  s.all = async () => {
    const r = await sent(spent, all);
    record(stats, [r.meta]);
    return r;
  };
  s.run = async () => {
    const r = await sent(spent, run);
    record(stats, [r.meta]);
    return r;
  };
  // first() and raw() return no metadata: they count as round trips only
  s.first = (async (col?: string) => {
    stats.roundTrips++;
    return sent(spent, () => (col === undefined ? first() : first(col)));
  });
  s.raw = (async (options?: { columnNames?: boolean }) => {
    stats.roundTrips++;
    return sent(spent, () => raw(options as { columnNames: true }));
  });
  return stmt;
}

export function instrumentD1(db: D1Client, stats: D1Stats): D1Client {
  const spent: Spent = { stats, inFlight: 0 };
  const client = new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => instrumentStatement(target.prepare(query), spent);
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await sent(spent, () => target.batch(statements));
          record(stats, results.map((r) => r.meta));
          return results;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  spentBy.set(client, spent);
  return client;
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
