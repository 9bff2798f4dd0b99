// A curation's size is capped (issue 28): CURATION_MAX_ECHOS echos, then adding is a 409 that
// writes nothing; a page of a curation at that size stays within the page budget (≤ 200 rows,
// one round trip), first page and deep by cursor. The 10,000 rows are written with SQL.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { postEcho } from "../echo/index.server";
import { batch, createDb, instrumentD1, select, sql, tables, testAppContext, type D1Stats } from "../shared/index.server";
import { addEcho, createScroll, CURATION_MAX_ECHOS, scrollEchos } from "./index.server";

const app = () => testAppContext(env);

describe("a curation's size", { timeout: 60_000 }, () => {
  it(`holds at most ${CURATION_MAX_ECHOS} echos: one more is a 409 that writes nothing; a page at that size stays within budget`, async () => {
    const me = (await signup(app(), { userName: "cur_full", password: "pass1234" })).user._id;
    const scroll = await createScroll(app(), me, { name: "big", type: "curation", description: null, isPrivate: false });
    // CURATION_MAX_ECHOS echos in it (the counter triggers keep echos_count exact)
    const start = Date.now() - 100_000_000;
    for (let i = 0; i < CURATION_MAX_ECHOS; i += 2_000) {
      await batch(app().db, [
        sql`WITH RECURSIVE n(i) AS (SELECT ${i} UNION ALL SELECT i + 1 FROM n WHERE i < ${i + 1_999})
          INSERT INTO echos (id, author_id, content, tags, created_at)
          SELECT printf('%013d', ${start} + i) || 'cfc' || printf('%010d', i), ${me}, 'x', '[]', ${start} + i FROM n`,
        sql`WITH RECURSIVE n(i) AS (SELECT ${i} UNION ALL SELECT i + 1 FROM n WHERE i < ${i + 1_999})
          INSERT INTO scroll_echos (scroll_id, echo_id, added_at)
          SELECT ${scroll._id}, printf('%013d', ${start} + i) || 'cfc' || printf('%010d', i), ${start} + i FROM n`,
      ]);
    }
    const count = async () =>
      (await batch(app().db, [select({ n: tables.scrolls.echosCount, rows: sql<number>`(SELECT COUNT(*) FROM scroll_echos WHERE scroll_id = ${scroll._id})` }, sql`FROM scrolls WHERE id = ${scroll._id}`)]))[0][0]!;
    expect(await count()).toEqual({ n: CURATION_MAX_ECHOS, rows: CURATION_MAX_ECHOS });

    const extra = await postEcho(app(), me, { content: "one too many", tags: [] });
    const refusal = await addEcho(app(), me, scroll._id, extra._id).catch((e: { status: number; message: string }) => e);
    expect(refusal).toMatchObject({ status: 409, message: "This curation is full: a curation holds at most 10,000 echos" });
    expect(await count()).toEqual({ n: CURATION_MAX_ECHOS, rows: CURATION_MAX_ECHOS });

    // pages: the first, then 20 pages deep by cursor
    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    const measured = testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) });
    let cursor: string | undefined;
    for (let n = 1; n <= 20; n++) {
      Object.assign(stats, { roundTrips: 0, rowsRead: 0 });
      const page = await scrollEchos(measured, me, scroll._id, { page: n, limit: 20, ...(cursor ? { cursor } : {}) });
      expect(page.echos).toHaveLength(20);
      expect(page.pagination.total).toBe(CURATION_MAX_ECHOS);
      expect(stats.roundTrips, `page ${n}`).toBeLessThanOrEqual(2);
      expect(stats.rowsRead, `page ${n}`).toBeLessThanOrEqual(200);
      cursor = page.pagination.nextCursor ?? undefined;
    }
  });
});
