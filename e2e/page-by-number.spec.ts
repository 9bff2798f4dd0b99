// The spec's own client pages a home feed by number (issue 27; product notes "Page numbers"): its
// home asks GET /api/scroll/{id}/echos?page=N&limit=20, one page after the other, and never
// sends a cursor. Here that client runs in Chromium, in the page (fetch with the browser's own
// cookie jar: the httpOnly `echo_pages` cookie carries where each page ended), over feeds of
// 130-odd matches interleaved with echos they pass over: it scrolls each to its end, every echo
// once and in order, every page within the row budget (Server-Timing), full while more come once
// the feed's index is built (from the engine while it is not); while others post meanwhile; and
// a page it asks twice (a retry) is the same page. A jump deep by number, with no page before
// it, is served within budget or answers 400 naming the cursor.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiUser, signedInPage } from "./helpers";
import { postEcho } from "./echo-helpers";
import { createFeed, uniqueTag } from "./scroll-helpers";

const LIMIT = 20;
const MAX_ROWS = 200;

type Fetched = { status: number; ids: string[]; hasMore: boolean; feedIndex?: string; message?: string; rows: number | null; roundTrips: number | null };

/** One numbered page, asked by the page's own fetch (the browser's cookies, no cursor). */
function numberedPage(page: Page, path: string): Promise<Fetched> {
  return page.evaluate(async (url) => {
    const res = await fetch(url, { credentials: "same-origin" });
    const body = (await res.json()) as { echos?: { _id: string }[]; pagination?: { hasMore?: boolean }; feedIndex?: string; message?: string };
    const timing = /rt=(\d+) rows=(\d+)/.exec(res.headers.get("server-timing") ?? "");
    return {
      status: res.status,
      ids: (body.echos ?? []).map((e) => e._id),
      hasMore: Boolean(body.pagination?.hasMore),
      feedIndex: body.feedIndex,
      message: body.message,
      rows: timing ? Number(timing[2]) : null,
      roundTrips: timing ? Number(timing[1]) : null,
    };
  }, path);
}

/** The spec's client: page 1, 2, 3… by number until hasMore is false. */
async function scrollToEnd(page: Page, feedId: string, between?: (n: number) => Promise<void>) {
  const pages: (Fetched & { n: number })[] = [];
  for (let n = 1; n <= 60; n++) {
    const got = await numberedPage(page, `/api/scroll/${feedId}/echos?page=${n}&limit=${LIMIT}`);
    expect(got.status, `page ${n}: ${got.message}`).toBe(200);
    expect(got.rows, `page ${n}: Server-Timing rows`).not.toBeNull();
    expect(got.rows!, `page ${n}: rows read`).toBeLessThanOrEqual(MAX_ROWS);
    expect(got.roundTrips!, `page ${n}: D1 round trips`).toBeLessThanOrEqual(2);
    pages.push({ ...got, n });
    if (!got.hasMore) return pages;
    await between?.(n);
  }
  throw new Error("the feed did not end within 60 pages");
}

/** Poll a feed (from another client: the browser's cookie jar stays as the spec's client left it). */
async function untilIndexed(request: APIRequestContext, feedId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await request.get(`/api/scroll/${feedId}/echos?limit=1`);
    const body = await res.json();
    if (body.feedIndex === "ready") return;
    if (Date.now() > deadline) throw new Error(`the feed's index was not built in time: ${JSON.stringify(body).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test("the spec's client pages a home feed by number to its end: every echo once, in order, then hasMore false", async ({ page, playwright, baseURL }) => {
  test.setTimeout(180_000);
  await signedInPage(page, "pbn");
  const tag = uniqueTag("pbn");
  const passed = uniqueTag("pbx");
  const other = uniqueTag("pbo");
  // 4 authors × 66 posts: every even post a match ([tag]), odd ones passed over ([tag, passed]
  // excluded by the rule, or another tag only): 132 matches, interleaved with 132 that are not
  const authors = await Promise.all([0, 1, 2, 3].map(() => apiUser(playwright, baseURL, "pba")));
  const matches: string[] = [];
  const byAuthors: string[] = [];
  await Promise.all(
    authors.map(async ({ request }, a) => {
      for (let j = 0; j < 66; j++) {
        const tags = j % 2 === 0 ? [tag] : j % 4 === 1 ? [tag, passed] : [other];
        const echo = await postEcho(request, `numbered ${a}.${j}`, tags);
        if (j % 2 === 0) matches.push(echo._id);
        if (j % 2 === 0 && a < 2) byAuthors.push(echo._id);
      }
    }),
  );
  // newest first: ids are time-sortable
  matches.sort().reverse();
  byAuthors.sort().reverse();
  expect(matches).toHaveLength(132);

  // a sparse rule (a tag with an exclusion), and authors with a tag, as a home feed shows them
  await page.goto("/");
  const sparse = await createFeed(page.request, "By number", { includedTags: [tag], excludedTags: [passed] });
  // this one's backfill message is lost (fault injection): its index stays "building" (until the
  // repair pass resends it), so the engine serves every page
  const created = await page.request.post("/api/scroll/create", {
    data: { name: "By number, two authors", type: "feed", description: "", isPrivate: false, feedConfig: { includedTags: [tag], excludedTags: [passed], authors: authors.slice(0, 2).map((x) => x.user._id) } },
    headers: { "X-Echo-Fault": "stream" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const authored = ((await created.json()) as { scroll: { _id: string } }).scroll;

  // served by the engine: pages may come short, never out of order or twice, never a 400
  const early = await scrollToEnd(page, authored._id);
  expect(early.flatMap((p) => p.ids)).toEqual(byAuthors);
  expect(new Set(early.map((p) => p.feedIndex))).toEqual(new Set(["building"]));

  // with the index built: every page full while more come, to the end
  const reader = authors[0]!.request;
  await untilIndexed(reader, sparse._id);
  const pages = await scrollToEnd(page, sparse._id);
  expect(pages.flatMap((p) => p.ids)).toEqual(matches);
  expect(pages).toHaveLength(Math.ceil(matches.length / LIMIT));
  for (const p of pages.slice(0, -1)) expect(p.ids, `page ${p.n} is full`).toHaveLength(LIMIT);
  expect(pages.at(-1)!.hasMore).toBe(false);
  console.warn(`paged by number: ${pages.length} pages of ${LIMIT}, rows read max ${Math.max(...pages.map((p) => p.rows!))} (index: ${pages.map((p) => p.feedIndex).join(",")})`);

  // again from page 1, while others post new matches: the pages go on below where the last one
  // ended (no echo pushed down is shown twice), and a page asked twice (a retry) is the same page
  const fresh: string[] = [];
  const retried: [Fetched, Fetched][] = [];
  const again = await scrollToEnd(page, sparse._id, async (n) => {
    fresh.unshift((await postEcho(reader, `posted while paging ${fresh.length}`, [tag]))._id);
    if (n === 3) {
      const path = `/api/scroll/${sparse._id}/echos?page=${n + 1}&limit=${LIMIT}`;
      const first = await numberedPage(page, path);
      retried.push([first, await numberedPage(page, path)]);
    }
  });
  // the retried page 4 was asked three times in all: the same echos each time
  const [[once, twice]] = retried as [[Fetched, Fetched]];
  expect(twice.status, twice.message).toBe(200);
  expect(twice.ids).toEqual(once.ids);
  expect(again[3]!.ids).toEqual(once.ids);
  expect(again.flatMap((p) => p.ids)).toEqual(matches);

  // A jump with no page before it (a new client): served within budget, or 400 naming the cursor.
  const jumper = authors[1]!.request;
  const jumps: string[] = [];
  for (const path of [`/api/scroll/${sparse._id}/echos?page=50&limit=2`, `/api/scroll/${sparse._id}/echos?page=50&limit=${LIMIT}`, `/api/scroll/${sparse._id}/echos?page=4&limit=${LIMIT}`]) {
    const res = await jumper.get(path);
    const body = await res.json();
    expect([200, 400], `${path}: ${JSON.stringify(body).slice(0, 200)}`).toContain(res.status());
    if (res.status() === 400) expect(body.message, path).toMatch(/cursor/);
    const rows = /rt=(\d+) rows=(\d+)/.exec(res.headers()["server-timing"] ?? "");
    expect(rows, `${path}: Server-Timing`).not.toBeNull();
    expect(Number(rows![2]), `${path}: rows read`).toBeLessThanOrEqual(MAX_ROWS);
    expect(Number(rows![1]), `${path}: D1 round trips`).toBeLessThanOrEqual(2);
    jumps.push(`${path.slice(path.indexOf("?"))}: ${res.status()}, ${rows![2]} rows`);
    if (res.status() === 200) {
      // a served jump is the page at that depth of the feed as it is now
      const asked = new URL(path, baseURL).searchParams;
      const [n, limit] = [Number(asked.get("page")), Number(asked.get("limit"))];
      expect(body.echos.map((e: { _id: string }) => e._id), path).toEqual([...fresh, ...matches].slice((n - 1) * limit, n * limit));
    }
  }
  console.warn(`from the engine (index building): ${early.length} pages (${early.map((p) => `${p.ids.length} ${p.feedIndex}`).join(", ")}); jumps: ${jumps.join("; ")}`);
  for (const { request } of authors) await request.dispose();
});
