// A page of a scroll by id as a GET reads it (its reads coalesced into shared batches), with the
// D1 round trips and rows it cost: the feed tests' budget checks.
import { env } from "cloudflare:workers";
import { configureRequestDb, createDb, instrumentD1, testAppContext, type D1Stats } from "../shared/index.server";
import { scrollEchos } from "./pages.server";

export async function measuredPage(viewerId: string, scrollId: string, cursor: string | undefined) {
  const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
  const measured = testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) });
  configureRequestDb(measured.db, { coalesce: true });
  const page = await scrollEchos(measured, viewerId, scrollId, { page: 1, limit: 20, cursor });
  return { page, stats };
}
