// A search's database work does not grow with how many echos hold its word (issue 28 item 9,
// decision 021). D1 counts only the rows FTS5 hands to SQL, so rows read were flat already while
// bm25() counted the word's whole doclist on every page; this measures the window statement's own
// time in D1 (its result's meta.duration) for two words with the same newest window: one held by
// 300,000 index rows, one by 1,000.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { createDb, testAppContext } from "../shared/index.server";
import { postEcho } from "./echo.server";
import { SEARCH_WINDOW, searchEchos } from "./search.server";

const BIG = 300_000;
const SMALL = 1_000;
const RUNS = 15;

/** D1 with the first statement's duration of every batch recorded (the search's window). */
function timedApp(durations: number[]) {
  const d1 = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          durations.push(results[0]?.meta.duration ?? NaN);
          return results;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return testAppContext(env, { db: createDb(d1) });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe("search cost against the store's size (real D1)", () => {
  it("a word in 300,000 echos costs what a word in 1,000 does: the window, not the doclist", { timeout: 120_000 }, async () => {
    // older index rows first (lower rowids): 300,000 hold "plenty", 1,000 of them "scarce" too;
    // the rows name no echo, so only the index grows (a search drops hits with no echo)
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${BIG})
       INSERT INTO echo_search (body, tags, author, eid)
       SELECT 'plenty of filler words ' || (CASE WHEN i % ${BIG / SMALL} = 0 THEN 'scarce' ELSE 'other' END), '', 'nobody', 'filler' || i FROM n`,
    ).run();
    // then the newest: real echos holding both words, more than one window of them
    const { user } = await signup(testAppContext(env), { userName: "cost_search", password: "pass1234" });
    for (let i = 0; i < SEARCH_WINDOW + 5; i++) {
      await postEcho(testAppContext(env), user._id, { content: `plenty and scarce, echo ${i}${i % 3 === 0 ? " plenty" : ""}`, tags: [] });
    }

    const cost = async (q: string) => {
      const durations: number[] = [];
      let echos = 0;
      for (let i = 0; i < RUNS; i++) {
        const page = await searchEchos(timedApp(durations), user._id, q, { page: 1, limit: 20 });
        echos = page.echos.length;
      }
      expect(echos).toBe(20);
      // each search is two batches: the window, then the page's echos; keep the window's times
      return median(durations.filter((_, i) => i % 2 === 0));
    };
    // warm both words' pages, then measure them interleaved
    await cost("scarce");
    await cost("plenty");
    const scarce = await cost("scarce");
    const plenty = await cost("plenty");
    // D1 reports whole milliseconds: with bm25() the common word's window took 20 ms here (it
    // counted the whole doclist) and the rare word's 1 ms; now both take 0–1 ms
    expect(plenty, `window: plenty ${plenty} ms, scarce ${scarce} ms`).toBeLessThanOrEqual(2 * scarce + 3);
  });
});
