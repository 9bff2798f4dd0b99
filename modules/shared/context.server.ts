import { createContext } from "react-router";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";

/**
 * Queries use Drizzle's query builder and `sql` template over the tables in ./db/schema, not its
 * relational `db.query` API, so the instance is built without the schema: with it, drizzle()
 * re-derived the relations of every table on each request (about a tenth of home's server time).
 */
export type Db = DrizzleD1Database & { $client: D1Client };

/**
 * What queries go through: a request's D1 session (read replication, decision 017) or, for the
 * cron and tests, the binding itself (which always reaches the primary). Both prepare and batch
 * alike, and that is all Drizzle and our batching use.
 */
export type D1Client = Pick<D1Database, "prepare" | "batch">;

/** A request's D1 costs (d1-stats.server.ts counts them; here because AppContext carries them). */
export type D1Stats = { roundTrips: number; rowsRead: number; rowsWritten: number };

/** What every loader, action and resource route gets for the request it serves. */
export type AppContext = {
  env: Env;
  ctx: ExecutionContext;
  db: Db;
  /** CSP nonce of this response's inline scripts. */
  nonce: string;
  /** true on https (production): Secure, __Host- cookie and HSTS follow from it. */
  secure: boolean;
  /** The client address as Cloudflare reports it (CF-Connecting-IP), for rate limits. */
  ip: string;
  /** Request-scoped memo (the viewer is looked up at most once per request). */
  memo: Map<string, Promise<unknown>>;
  /** What an invalid session answers: 401 JSON on the API, a redirect to /login on pages. */
  authFailure?: "api" | "page";
  /** On pages: the page asked for, which /login goes back to after signing in (issue 29). */
  returnTo?: string;
  /**
   * This request's D1 counts so far, only where they are exposed (EXPOSE_D1_STATS=1): a streamed
   * answer (the export) reports what its body read at the body's end.
   */
  d1Stats?: D1Stats;
};

export const appContext = createContext<AppContext>();

export function createDb(d1: D1Client): Db {
  // drizzle() is typed for the binding, but calls only prepare() and batch() on its client
  return drizzle(d1 as D1Database);
}

export function memoize<T>(app: AppContext, key: string, load: () => Promise<T>): Promise<T> {
  let hit = app.memo.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = load();
    app.memo.set(key, hit);
  }
  return hit;
}
