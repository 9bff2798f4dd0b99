// Every echo list at its largest page, and at the screens' page of 20, stays within 200 rows read
// and 2 D1 round trips when each echo costs the most it can (decision 027, "Pages sized by rows
// per echo"): every echo a quote (its quoted echo and that echo's author are read), liked and
// reposted by the viewer (both probes find a row), Following made of reposts by someone the viewer
// follows (the repost, the reposter's name and the follow probe), with replies, a muted and a
// blocked author's echos among them (left out in the statement: pages must still fill). Each list
// must answer a full page — its declared largest page, or all it has — by number and by cursor.
// Rows and round trips come from Server-Timing (EXPOSE_D1_STATS=1).
import { beforeAll, describe, expect, it } from "vitest";
import { Client, signedUp, timed } from "./client";

const MAX_ROWS = 200;
const MAX_ROUND_TRIPS = 2;
/** The screens' page (the spec's client asks for 20). */
const SCREEN = 20;
const QUOTES = 100;

type Account = Awaited<ReturnType<typeof signedUp>>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const uniq = (p: string) => p + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

let viewer: Account;
let author: Account;
let tag: string;
let word: string;
let quoted: string;
const quotes: string[] = [];
let curation: string;
const feeds: { name: string; id: string }[] = [];

async function ok(res: Promise<{ status: number; text: string; json: Json }>, status = 200) {
  const r = await res;
  expect(r.status, r.text.slice(0, 200)).toBe(status);
  return r.json;
}
async function inParallel<T>(items: T[], each: (item: T) => Promise<unknown>, width = 10) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(each));
}

beforeAll(async () => {
  tag = uniq("wq");
  word = uniq("q");
  const [v, a, reposter, quotedAuthor, replier, muted, blocked] = await Promise.all(["wqv", "wqa", "wqr", "wqx", "wqc", "wqm", "wqb"].map((p) => signedUp(p)));
  viewer = v!;
  author = a!;
  // the viewer follows the author, the reposter, the replier and the muted one (whose entries
  // then sit in the timeline, left out at read)
  for (const who of [author, reposter!, replier!, muted!]) await ok(viewer.client.post(`/api/profile/user/${who.user._id}/follow`));
  quoted = (await ok(quotedAuthor!.client.post("/api/echo/post", { content: `${word} the quoted echo`, tags: [tag] }), 201)).echo._id;
  // the muted and the blocked author's echos, older than the quotes and among them
  const noise = async (who: Account, n: number) =>
    inParallel(Array.from({ length: n }, (_, i) => i), (i) => ok(who.client.post("/api/echo/post", { content: `${word} noise ${i}`, tags: [tag] }), 201));
  await Promise.all([noise(muted!, 15), noise(blocked!, 15)]);
  // 100 quotes of one echo (the author's post limit), each on the tag, with the word
  await inParallel(Array.from({ length: QUOTES }, (_, i) => i), async (i) => {
    quotes.push((await ok(author.client.post(`/api/echo/${quoted}/quote`, { content: `${word} quote number ${i}`, tags: [tag] }), 201)).echo._id);
  });
  quotes.sort().reverse();
  await noise(muted!, 15);
  await ok(viewer.client.post(`/api/profile/user/${muted!.user._id}/mute`, {}));
  await ok(viewer.client.post(`/api/profile/user/${blocked!.user._id}/block`));
  // replies to the newest quote (its thread), on the tag too
  await inParallel(Array.from({ length: 25 }, (_, i) => i), (i) => ok(replier!.client.post(`/api/echo/${quotes[0]}/reply`, { content: `${word} reply ${i}`, tags: [tag] }), 201));
  // the viewer likes and reposts every quote; the reposter reposts them all after
  await inParallel(quotes, async (id) => {
    await ok(viewer.client.post(`/api/echo/like/${id}`));
    await ok(viewer.client.post(`/api/echo/${id}/repost`));
  });
  await inParallel(quotes, (id) => ok(reposter!.client.post(`/api/echo/${id}/repost`)));
  // the viewer's curation of them all, and feeds over the tag and over the author
  curation = (await ok(viewer.client.post("/api/scroll/create", { name: "Quoted picks", type: "curation" }), 201)).scroll._id;
  await inParallel([...quotes].reverse(), (id) => ok(viewer.client.post(`/api/scroll/${curation}/add-echo`, { echoId: id })), 1);
  for (const [name, feedConfig] of [
    ["feed of a tag", { includedTags: [tag] }],
    ["feed of an author", { authors: [author.user._id] }],
    ["feed of a tag and an author, oldest first", { includedTags: [tag], authors: [author.user._id], sortBy: "oldestFirst" }],
    ["feed of a tag, hiding what I liked", { includedTags: [tag], excludeLikedEchos: true }],
    ["feed of everything", {}],
  ] as const) {
    feeds.push({ name, id: (await ok(viewer.client.post("/api/scroll/create", { name, type: "feed", feedConfig }), 201)).scroll._id });
  }
  // the feeds' indexes built (decision 020): their pages come from the index, as a reader sees them
  for (const f of feeds) {
    const deadline = Date.now() + 30_000;
    while ((await ok(viewer.client.get(`/api/scroll/${f.id}/echos`))).feedIndex === "building" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 300));
  }
}, 600_000);

const withParams = (path: string, params: string) => `${path}${path.includes("?") ? "&" : "?"}${params}`;

/** The echo lists at their worst for the viewer. */
function lists(): { name: string; path: string }[] {
  return [
    { name: "all echos", path: "/api/echo/all" },
    { name: "all echos by tag", path: `/api/echo/all?tag=${tag}` },
    { name: "tag page", path: `/api/echo/tag/${tag}` },
    { name: "tag page, most liked", path: `/api/echo/tag/${tag}?orderBy=likes` },
    { name: "Following", path: "/api/echo/following" },
    { name: "profile echos", path: `/api/profile/user/${author.user._id}/echos` },
    { name: "all echos of one author", path: `/api/echo/all?user=${author.user._id}` },
    { name: "curation", path: `/api/scroll/${curation}/echos` },
    ...feeds.map((f) => ({ name: f.name, path: `/api/scroll/${f.id}/echos` })),
    { name: "search", path: `/api/search/echos?q=${word}` },
    { name: "quotes of an echo", path: `/api/echo/${quoted}/quotes` },
  ];
}

type Cost = { name: string; status: number; rows: number; roundTrips: number; items: number; limit: number; message?: string; more?: boolean };
// a page number the list cannot serve within budget answers 400 naming the cursor (issue 27)
const over = (c: Cost) => (c.status !== 200 && !(c.status === 400 && /cursor/.test(c.message ?? ""))) || c.rows > MAX_ROWS || c.roundTrips > MAX_ROUND_TRIPS;
/**
 * Pages that may be short with more to come, by their list's design (decision 027, "What is
 * left"): a hide-liked reader's page stops after its bounded scan of the index (decision 020;
 * here every match but one is liked), and a search page leaves the hidden authors' hits of its
 * ranked window out (decisions 021, 026); a feed's page by number comes from the engine's first
 * window, which may end before the page does (decision 010; the cursor goes on from there).
 */
const mayBeShort = (name: string) => name.includes("hiding what I liked") || name.startsWith("search") || (name.startsWith("feed") && name.endsWith("page=2"));
/**
 * This viewer blocks one author and mutes another: a feed's page probes at most its scan of
 * entries for what the viewer does not see (decision 026, "Feeds: what a viewer does not see, in
 * the statement"), so with many of them hidden it may come back short — always with its cursor.
 */
const mayBeShortWithCursor = (name: string) => name.startsWith("feed");
const report = (costs: Cost[]) => console.warn(costs.map((c) => `${c.rows} rows ${c.roundTrips} rt ${c.items}/${c.limit}  ${c.name}`).join("\n"));

describe("every echo list when every echo is a quote the viewer liked and reposted", () => {
  it("at its largest page (limit=100), full, within 200 rows and 2 round trips; then its next page by cursor", async () => {
    const costs: Cost[] = [];
    const short: string[] = [];
    for (const list of lists()) {
      const { path } = list;
      let { name } = list;
      const first = await timed(viewer.client, withParams(path, "limit=100"));
      const page = first.json as Json;
      const limit = page?.pagination?.limit ?? 0;
      if (page?.feedIndex) name += ` (index ${page.feedIndex})`;
      costs.push({ name, status: first.status, rows: first.rows, roundTrips: first.roundTrips, items: page?.echos?.length ?? 0, limit });
      // a full page, or all the list has (then no next page); every list here has more than one page
      const cursor = page?.pagination?.nextCursor;
      if ((page?.echos?.length !== limit || !cursor) && !mayBeShort(name) && !(mayBeShortWithCursor(name) && cursor)) {
        short.push(`${name}: ${page?.echos?.length} of ${limit}, next cursor ${cursor}`);
        continue;
      }
      // the list ended: all it has (a hide-liked feed whose every echo the viewer liked answers
      // empty and ended once their viewer index is built: decision 033)
      if (!cursor) continue;
      const next = await timed(viewer.client, withParams(path, `limit=100&cursor=${encodeURIComponent(cursor)}`));
      const items = next.json?.echos?.length ?? 0;
      costs.push({ name: `${name}, by cursor`, status: next.status, rows: next.rows, roundTrips: next.roundTrips, items, limit });
      if (items !== limit && next.json?.pagination?.nextCursor && !mayBeShort(name) && !mayBeShortWithCursor(name)) short.push(`${name} by cursor: ${items} of ${limit} with more to come`);
    }
    report(costs);
    expect(costs.filter(over).map((c) => `${c.name}: ${c.rows} rows, ${c.roundTrips} rt, ${c.status}`)).toEqual([]);
    expect(short).toEqual([]);
  });

  it("page 2 by number (no bookmark: a jump) within budget, and the screens' page of 20 with headroom", async () => {
    const costs: Cost[] = [];
    const session = viewer.client.cookie.split("; ").filter((c) => !c.startsWith("echo_pages")).join("; ");
    for (const { name, path } of lists()) {
      if (name === "search") continue; // search pages only by its cursor after page 1
      // page 2 of half the largest page: the deepest a page number may jump to (pageRequest)
      const half = Math.floor((await ok(viewer.client.get(withParams(path, "limit=100")))).pagination.limit / 2);
      for (const params of [`limit=${SCREEN}`, `limit=${half}&page=2`]) {
        const res = await new Client().get(withParams(path, params), { Cookie: session });
        const m = /rt=(\d+) rows=(\d+)/.exec(res.headers.get("server-timing") ?? "");
        const limit = Number(/limit=(\d+)/.exec(params)![1]);
        const more = Boolean(res.json?.pagination?.nextCursor);
        costs.push({ name: `${name} ${params}`, status: res.status, rows: Number(m?.[2]), roundTrips: Number(m?.[1]), items: res.json?.echos?.length ?? 0, limit, message: res.json?.message, more });
      }
    }
    report(costs);
    expect(costs.filter(over).map((c) => `${c.name}: ${c.rows} rows, ${c.roundTrips} rt, ${c.status}`)).toEqual([]);
    // full pages (a feed's page number past its first window is the 400 above; decision 010)
    expect(costs.filter((c) => c.status === 200 && c.items !== c.limit && !mayBeShort(c.name) && !(mayBeShortWithCursor(c.name) && c.more)).map((c) => `${c.name}: ${c.items} echos`)).toEqual([]);
    // the screens' page keeps headroom: the pages are sized for 190 rows (PAGE_ROW_TARGET)
    expect(costs.filter((c) => !c.name.endsWith("page=2") && c.rows > 190).map((c) => `${c.name}: ${c.rows}`)).toEqual([]);
  });

  it("the screens that show these lists, within budget", async () => {
    const pages = ["/", `/tag/${tag}`, `/scroll/${curation}`, ...feeds.map((f) => `/scroll/${f.id}`), `/user/${author.user._id}`, `/search?q=${word}`, `/echo/${quotes[0]}`, `/echo/${quoted}`,
      // the web feeds: 50 entries, read as nobody
      `/tag/${tag}/feed.json`, `/user/${author.user.userName}/feed.atom`, `/scroll/${curation}/feed.rss`, ...feeds.map((f) => `/scroll/${f.id}/feed.json`)];
    const costs: Cost[] = [];
    for (const path of pages) {
      const res = await timed(viewer.client, path);
      costs.push({ name: path, status: res.status, rows: res.rows, roundTrips: res.roundTrips, items: 0, limit: 0 });
    }
    report(costs);
    expect(costs.filter(over).map((c) => `${c.name}: ${c.rows} rows, ${c.roundTrips} rt, ${c.status}`)).toEqual([]);
  });

  it("the thread and who reposted, within budget", async () => {
    const costs: Cost[] = [];
    for (const [name, path] of [
      ["thread of the newest quote", `/api/echo/${quotes[0]}/thread`],
      ["who reposted", `/api/echo/${quotes[0]}/reposts`],
      ["the quoted echo", `/api/echo/echo/${quoted}`],
    ] as const) {
      const res = await timed(viewer.client, path);
      costs.push({ name, status: res.status, rows: res.rows, roundTrips: res.roundTrips, items: 0, limit: 0 });
    }
    report(costs);
    expect(costs.filter(over).map((c) => `${c.name}: ${c.rows} rows, ${c.roundTrips} rt, ${c.status}`)).toEqual([]);
  });
});
