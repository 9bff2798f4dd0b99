// Scroll lists that one account cannot inflate (issue 28, items 3 and 12; decision 007 "Scroll
// lists"). One account creates 59 public feeds naming 25 authors each (the create limit allows
// 60 per 10 minutes), a second forks all of them, and the viewer forks 55 of them and follows the
// rest and the second's forks: every scroll of every list below names 25 authors, most are forks,
// many are followed. Every list and page that shows them stays within 200 rows read and 2 D1
// round trips (Server-Timing, EXPOSE_D1_STATS=1), and GET /api/scroll/all with no parameters
// answers the viewer's newest 95 scrolls (MY_SCROLLS_MAX). Then deleting a named author's account turns their
// name into "unknown" in every rule naming them, as the read-time join did before.
import { beforeAll, describe, expect, it } from "vitest";
import { signedUp, timed, type Client } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MAX_ROWS = 200;
const ref = (u: { _id: string; userName: string }) => ({ _id: u._id, userName: u.userName });
const MAX_ROUND_TRIPS = 2;
const AUTHORS = 25;

/** `count` calls of `make`, ten at a time (all at once would flood the shared test server). */
async function tens<T>(count: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += 10) out.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => make(i + j)))));
  return out;
}

const term = `lists${Date.now().toString(36)}`;
let maker: Awaited<ReturnType<typeof signedUp>>;
let forker: Awaited<ReturnType<typeof signedUp>>;
let viewer: Awaited<ReturnType<typeof signedUp>>;
let authors: Awaited<ReturnType<typeof signedUp>>[];
let feeds: string[];
let theirForks: string[];
let myForks: string[];
let expected: string[];

beforeAll(async () => {
  authors = await tens(AUTHORS, () => signedUp("la"));
  [maker, forker, viewer] = [await signedUp("lm"), await signedUp("lf"), await signedUp("lv")];
  const feedConfig = { includedTags: [term], authors: authors.map((a) => a.user._id) };
  feeds = await tens(59, async (i) => {
    const res = await maker.client.post("/api/scroll/create", { name: `${term} feed ${i}`, description: "named", type: "feed", feedConfig });
    expect(res.status, res.text).toBe(201);
    return res.json.scroll._id as string;
  });
  const curation = await maker.client.post("/api/scroll/create", { name: `${term} curation`, type: "curation" });
  expect(curation.status).toBe(201);
  // a fork starts private (product notes, "Forks"): these are made public, to be followed and listed
  const fork = (who: Client) => async (id: string) => {
    const res = await who.post(`/api/scroll/${id}/fork`);
    expect(res.status, res.text).toBe(201);
    const forked = res.json.scroll._id as string;
    expect((await who.request("PATCH", `/api/scroll/${forked}`, { isPrivate: false })).status).toBe(200);
    return forked;
  };
  myForks = await tens(55, (i) => fork(viewer.client)(feeds[i]!));
  theirForks = await tens(59, (i) => fork(forker.client)(feeds[i]!));
  const follow = async (id: string) => expect((await viewer.client.post(`/api/scroll/${id}/follow`)).status).toBe(200);
  await tens(59, (i) => follow(feeds[i]!));
  await tens(59, (i) => follow(theirForks[i]!));
  await follow(curation.json.scroll._id);
  expected = [...myForks, ...feeds, ...theirForks, curation.json.scroll._id].sort().reverse();
}, 300_000);

describe("lists of scrolls naming 25 authors, forks, followed", () => {
  it("every scroll names every rule author, and a fork its original", async () => {
    const res = await viewer.client.get(`/api/scroll/${theirForks[0]}`);
    expect(res.json.scroll.feedConfig.authors).toEqual(authors.map((a) => ref(a.user)));
    expect(res.json.scroll.creator).toEqual(ref(forker.user));
    expect(res.json.scroll.forkedFrom).toEqual({ _id: feeds[0], name: `${term} feed 0`, creator: ref(maker.user) });
  });

  it(`each list and page reads at most ${MAX_ROWS} rows in at most ${MAX_ROUND_TRIPS} round trips`, async () => {
    const paths = [
      "/api/community/scrolls/public/feed?limit=100",
      "/api/community/scrolls/public/curation?limit=100",
      "/community",
      "/browse/scrolls",
      "/browse/curation",
      `/api/profile/user/${maker.user._id}/scrolls?limit=100`,
      `/api/profile/user/${forker.user._id}/scrolls?limit=100`,
      `/api/profile/user/${viewer.user._id}/scrolls?limit=100`,
      `/user/${maker.user._id}`,
      "/profile",
      "/api/scroll/all",
      "/",
      "/settings",
      `/search?q=${term}&type=scrolls`,
    ];
    const over: string[] = [];
    const measured: Record<string, string> = {};
    for (const path of paths) {
      const res = await timed(viewer.client, path);
      expect(res.status, path).toBe(200);
      measured[path] = `${res.rows} rows, ${res.roundTrips} rt`;
      if (res.rows > MAX_ROWS || res.roundTrips > MAX_ROUND_TRIPS) over.push(`${path}: ${res.rows} rows, ${res.roundTrips} round trips`);
    }
    expect(over).toEqual([]);
  });

  it("the community list answers its largest page of them, each naming 25 authors", async () => {
    const res = await timed(viewer.client, "/api/community/scrolls/public/feed?limit=100");
    expect(res.json!.length).toBe(80);
    expect(res.json!.every((s: Json) => s.feedConfig.authors.length === AUTHORS && s.feedConfig.authors.every((a: Json) => a.userName !== "unknown"))).toBe(true);
  });

  it("GET /api/scroll/all with no parameters answers the newest 95 of the viewer's 174 scrolls, and a cursor the rest", async () => {
    const first = await timed(viewer.client, "/api/scroll/all");
    expect(first.rows).toBeLessThanOrEqual(MAX_ROWS);
    expect(first.roundTrips).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
    expect(first.json!.scrolls.map((s: Json) => s._id)).toEqual(expected.slice(0, 95));
    expect(first.json!.scrolls.every((s: Json) => s.isFollowing === (s.creator._id !== viewer.user._id))).toBe(true);
    expect(first.json!.pagination.hasMore).toBe(true);
    const rest = await timed(viewer.client, `/api/scroll/all?cursor=${encodeURIComponent(first.json!.pagination.nextCursor)}`);
    expect(rest.rows).toBeLessThanOrEqual(MAX_ROWS);
    expect(rest.json!.scrolls.map((s: Json) => s._id)).toEqual(expected.slice(95));
    expect(rest.json!.pagination.nextCursor).toBeNull();
  });
});

describe("stored names follow the accounts and scrolls they name", () => {
  it("a renamed original's new name shows on its forks", async () => {
    expect((await maker.client.request("PATCH", `/api/scroll/${feeds[58]}`, { name: `${term} renamed` })).status).toBe(200);
    const fork = await viewer.client.get(`/api/scroll/${theirForks[58]}`);
    expect(fork.json.scroll.forkedFrom.name).toBe(`${term} renamed`);
  });

  it("deleting a named author's account makes their name unknown in every rule naming them", async () => {
    const [gone, ...kept] = authors;
    expect((await gone!.client.request("DELETE", "/api/profile/me", { password: "pass1234" })).status).toBe(200);
    const named = [
      { _id: gone!.user._id, userName: "unknown" },
      ...kept.map((a) => ref(a.user)),
    ];
    // the rules forget the name through the change stream (decision 032)
    for (let deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      if ((await viewer.client.get(`/api/scroll/${feeds[0]}`)).json.scroll.feedConfig.authors[0].userName === "unknown") break;
    }
    for (const id of [feeds[0], theirForks[1], myForks[2]]) {
      const res = await viewer.client.get(`/api/scroll/${id}`);
      expect(res.json.scroll.feedConfig.authors, id).toEqual(named);
    }
    const list = await viewer.client.get("/api/scroll/all?limit=20");
    for (const scroll of list.json.scrolls as Json[]) if (scroll.type === "feed") expect(scroll.feedConfig.authors).toEqual(named);
    // a rule edited afterwards, naming the remaining authors, still names them
    const edited = await maker.client.request("PATCH", `/api/scroll/${feeds[3]}`, { feedConfig: { includedTags: [term], authors: kept.map((a) => a.user._id) } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.scroll.feedConfig.authors).toEqual(kept.map((a) => ref(a.user)));
  });
});
