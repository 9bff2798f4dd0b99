// Builds the AppContext a request would get, for module-service tests inside workerd.
import type { AppContext } from "./context.server";
import { createDb } from "./context.server";
import { instrumentD1 } from "./d1-stats.server";
import { batch, configureRequestDb } from "./sql/batch.server";
import { sql } from "drizzle-orm";
import { newId } from "./ids";

export function testAppContext(env: Env, overrides: Partial<AppContext> = {}): AppContext {
  const pending: Promise<unknown>[] = [];
  return {
    env,
    ctx: {
      waitUntil: (p: Promise<unknown>) => void pending.push(p),
      passThroughOnException: () => {},
      props: {},
    } as unknown as ExecutionContext,
    db: createDb(env.DB),
    nonce: "test",
    secure: false,
    ip: "203.0.113.7",
    memo: new Map(),
    ...overrides,
  };
}

/** A page a walk read: what it showed, and D1's round trips and rows read for it. */
export type WalkedPage = { shown: number; rt: number; rows: number };

/**
 * A list read by cursor to its end (at most `max` pages), each page as a request reads it: D1
 * counted, reads coalesced as a GET's — for the budget tests of a list's every page.
 */
export async function walkCounted<T>(
  env: Env,
  read: (app: AppContext, cursor: string | undefined) => Promise<{ items: T[]; next: string | null | undefined }>,
  max = 30,
): Promise<{ pages: WalkedPage[]; items: T[] }> {
  const pages: WalkedPage[] = [];
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    const app = testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) });
    configureRequestDb(app.db, { coalesce: true });
    const page = await read(app, cursor);
    pages.push({ shown: page.items.length, rt: stats.roundTrips, rows: stats.rowsRead });
    items.push(...page.items);
    cursor = page.next ?? undefined;
  } while (cursor && pages.length < max);
  return { pages, items };
}

/** Walks as a markdown table's rows: "shown/rt/rows" a page. */
export const walkTable = (walks: Record<string, WalkedPage[]>): string =>
  ["| viewer | pages: shown / rt / rows |", "|---|---|", ...Object.entries(walks).map(([who, pages]) => `| ${who} | ${pages.map((p) => `${p.shown}/${p.rt}/${p.rows}`).join(", ")} |`)].join("\n");

/** The pages over a request's budget (200 rows, 2 round trips), described: none is the pass. */
export const overBudget = (pages: WalkedPage[]): string[] => pages.flatMap((p, i) => (p.rows > 200 || p.rt > 2 ? [`page ${i + 1}: ${p.rt} rt, ${p.rows} rows`] : []));

/** `n` users written with SQL (no password hashing: the lists' tests need only their rows), named `<prefix><i>`, ids made at `at(i)`. */
export async function testUsers(db: AppContext["db"], prefix: string, n: number, at: (i: number) => number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => newId(at(i)));
  await batch(db, ids.map((id, i) => sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES (${id}, ${`${prefix}${i}`}, 'x', 1)`));
  return ids;
}
