// Per-account write limits (issue 12; the limits live in modules/shared/rate-limit.server.ts): the limit's window is fixed, so each test tries up to
// 2 × limit + 1 times (that puts limit + 1 in one window wherever its edge falls) and stops at
// the first 429. A refused write must write nothing.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { postEcho, reportEcho } from "../echo/index.server";
import { updateProfile } from "./profile.server";
import { createScroll, updateScroll } from "../scroll/index.server";
import { batch, select, sql, tables, testAppContext, WRITE_LIMITS, type Select, type SQL } from "../shared/index.server";

const { users, scrolls, reports } = tables;

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user;

type Refusal = { status: number; headers: Record<string, string> };

/** Call `write` until it is refused; returns how many succeeded and the refusal. */
async function untilRefused(limit: number, write: (i: number) => Promise<unknown>) {
  let done = 0;
  for (let i = 0; i < 2 * limit + 1; i++) {
    try {
      await write(i);
      done++;
    } catch (error) {
      if ((error as Refusal).status === 429) return { done, refusal: error as Refusal };
      throw error;
    }
  }
  return { done, refusal: null };
}

function expectRefusal(result: { done: number; refusal: Refusal | null }, limit: number) {
  expect(result.done).toBeGreaterThanOrEqual(limit);
  expect(result.refusal).toMatchObject({ status: 429 });
  expect(Number(result.refusal!.headers["Retry-After"])).toBeGreaterThan(0);
}

/** The one number a statement selects as `n`. */
const count = async (query: Select<{ n: number }>) => (await batch(app().db, [query]))[0][0]!.n;
/** `SELECT COUNT(*) AS n <from>`: how many rows a FROM … WHERE … holds. */
const rowsWhere = (from: SQL) => select({ n: sql<number>`COUNT(*)` }, from);

describe("per-account write limits", { timeout: 120_000 }, () => {
  it(`scroll creation: ${WRITE_LIMITS.scrollCreate.limit} per 10 minutes, a refused one creates nothing`, async () => {
    const me = await user("lim_scrolls");
    const { limit } = WRITE_LIMITS.scrollCreate;
    const result = await untilRefused(limit, (i) => createScroll(app(), me._id, { name: `s${i}`, type: "curation", description: null, isPrivate: false }));
    expectRefusal(result, limit);
    expect(await count(rowsWhere(sql`FROM scrolls WHERE ${scrolls.creatorId} = ${me._id}`))).toBe(result.done);
    expect(await count(select({ n: users.scrollsCount }, sql`FROM users WHERE ${users.id} = ${me._id}`))).toBe(result.done);
  });

  it(`scroll edits: ${WRITE_LIMITS.scrollEdit.limit} per 10 minutes, a refused one changes nothing`, async () => {
    const me = await user("lim_edits");
    const scroll = await createScroll(app(), me._id, { name: "start", type: "curation", description: null, isPrivate: false });
    const { limit } = WRITE_LIMITS.scrollEdit;
    const result = await untilRefused(limit, (i) => updateScroll(app(), me._id, scroll._id, { name: `edit ${i}` }));
    expectRefusal(result, limit);
    const [rows] = await batch(app().db, [select({ name: scrolls.name }, sql`FROM scrolls WHERE ${scrolls.id} = ${scroll._id}`)]);
    expect(rows[0]!.name).toBe(`edit ${result.done - 1}`);
  });

  it(`profile edits: ${WRITE_LIMITS.profileEdit.limit} per 10 minutes, a refused one changes nothing`, async () => {
    const me = await user("lim_profile");
    const { limit } = WRITE_LIMITS.profileEdit;
    const result = await untilRefused(limit, (i) => updateProfile(app(), me._id, { bio: `bio ${i}` }));
    expectRefusal(result, limit);
    const [rows] = await batch(app().db, [select({ bio: users.bio }, sql`FROM users WHERE ${users.id} = ${me._id}`)]);
    expect(rows[0]!.bio).toBe(`bio ${result.done - 1}`);
  });

  it(`reports: ${WRITE_LIMITS.report.limit} per 10 minutes, a refused one records nothing`, async () => {
    // two authors: one alone would meet the posting limit first
    const authors = [await user("lim_author1"), await user("lim_author2")];
    const me = await user("lim_reporter");
    const { limit } = WRITE_LIMITS.report;
    const echos: string[] = [];
    for (let i = 0; i < 2 * limit + 1; i++) echos.push((await postEcho(app(), authors[i % 2]!._id, { content: `r${i}`, tags: [] }))._id);
    const result = await untilRefused(limit, (i) => reportEcho(app(), me._id, echos[i]!, "spam"));
    expectRefusal(result, limit);
    expect(await count(rowsWhere(sql`FROM reports WHERE ${reports.userId} = ${me._id}`))).toBe(result.done);
  });
});
