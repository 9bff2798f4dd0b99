// The export of a larger user streams whole, page by page: 1,000 echos written straight into
// the real local D1 (set-based SQL through the real schema and its triggers), then the file read
// to its end from the ReadableStream and parsed.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { batch, createDb, instrumentD1, sql, testAppContext, type D1Stats } from "../shared/index.server";
import { EXPORT_PAGE, exportResponse } from "./export.server";

const ECHOS = 1000;
const userId = "0ex0000000000000000000user";
const echoId = (n: number) => `0ex${String(n).padStart(23, "0")}`;

it(`streams a ${ECHOS}-echo user's export completely, ${EXPORT_PAGE} rows a read`, async () => {
  const setup = testAppContext(env);
  const echos = Array.from({ length: ECHOS }, (_, n) => ({ id: echoId(n), content: `bulk ${n}` }));
  await batch(setup.db, [
    sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES (${userId}, 'bulkexport', 'x', 1)`,
    sql`INSERT INTO echos (id, author_id, content, tags, created_at)
        SELECT json_extract(j.value, '$.id'), ${userId}, json_extract(j.value, '$.content'), '[]', 2 FROM json_each(${JSON.stringify(echos)}) j`,
  ]);
  const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
  const app = testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) });
  const res = await exportResponse(app, userId);
  expect(res.headers.get("content-disposition")).toBe('attachment; filename="echo-bulkexport.json"');
  // read chunk by chunk, as a client would: the body arrives in many pieces, not one
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    text += decoder.decode(value, { stream: true });
  }
  const file = JSON.parse(text) as { profile: { userName: string }; echos: { _id: string; content: string }[]; likes: unknown[]; scrolls: unknown[] };
  expect(file.profile.userName).toBe("bulkexport");
  expect(file.echos.map((e) => e._id)).toEqual(echos.map((e) => e.id));
  expect(file.echos[ECHOS - 1]!.content).toBe(`bulk ${ECHOS - 1}`);
  expect(chunks).toBeGreaterThan(ECHOS);
  // the profile, ⌈1000/200⌉ + 1 echo pages (the last one empty), one page of each other list
  expect(stats.roundTrips).toBe(1 + Math.ceil(ECHOS / EXPORT_PAGE) + 1 + 5);
  expect(stats.rowsRead).toBeLessThanOrEqual(stats.roundTrips * 2 * EXPORT_PAGE);
});
