// Muted words over real HTTP (issue 32, decision 028): the API (list, add, replace, remove, bad
// input, the limit, one's own list only), each context's list leaving out what a "hide" word
// matches and marking what a "warn" word matches (Home's All and Following, tags, a feed, a
// curation, search, notifications), and a viewer with 100 words reading full pages within the
// budget (≤ 2 D1 round trips, ≤ 200 rows read).
import { beforeAll, describe, expect, it } from "vitest";
import { expectErrorShape, signedUp, timed } from "./client";

const MAX_ROWS = 200;
const WORDS = 100;
const uniq = (p: string) => p + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

type Person = Awaited<ReturnType<typeof signedUp>>;
let viewer: Person;
let authors: Person[];
let tag: string;
let hideWord: string;
let warnWord: string;
let feedId: string;
let curationId: string;

beforeAll(async () => {
  tag = uniq("mwt");
  hideWord = uniq("hidew");
  warnWord = uniq("warnw");
  const people = await Promise.all(Array.from({ length: 4 }, () => signedUp("mw")));
  [viewer, ...authors] = people as [Person, ...Person[]];
  for (const a of authors) expect((await viewer.client.post(`/api/profile/user/${a.user._id}/follow`)).status).toBe(200);
  // 2 of every 5 echos carry a hidden word, 1 a warned one; interleaved over the authors
  const ids: string[] = [];
  for (let i = 0; i < 75; i++) {
    const kind = i % 5;
    const content = kind < 2 ? `about ${hideWord.toUpperCase()} number ${i}` : kind === 2 ? `careful: ${warnWord} ${i}` : `plain ${tag} ${i}`;
    const res = await authors[i % authors.length]!.client.post("/api/echo/post", { content, tags: [tag] });
    expect(res.status, res.text).toBe(201);
    ids.push(res.json.echo._id);
  }
  const feed = await viewer.client.post("/api/scroll/create", { name: "mw feed", type: "feed", feedConfig: { includedTags: [tag] } });
  expect(feed.status, feed.text).toBe(201);
  feedId = feed.json.scroll._id;
  const curation = await viewer.client.post("/api/scroll/create", { name: "mw curation", type: "curation" });
  curationId = curation.json.scroll._id;
  for (const id of ids.slice(-50)) expect((await viewer.client.post(`/api/scroll/${curationId}/add-echo`, { echoId: id })).status).toBe(200);
  // a mention of the viewer with the hidden word, one without
  await authors[0]!.client.post("/api/echo/post", { content: `@${viewer.user.userName} ${hideWord} again`, tags: [] });
  await authors[1]!.client.post("/api/echo/post", { content: `@${viewer.user.userName} hello`, tags: [] });
}, 300_000);

describe("muted words: the API", () => {
  it("adds (defaults: hide, everywhere, until removed), replaces, lists, removes; own list only", async () => {
    const p = await signedUp("mwapi");
    const add = await p.client.post("/api/profile/me/muted-words", { phrase: "  Café au lait " });
    expect(add.status, add.text).toBe(200);
    expect(add.json).toMatchObject({ phrase: "Café au lait", action: "hide", contexts: ["home", "feeds", "tags", "search", "notifications"], expiresAt: null });
    const again = await p.client.post("/api/profile/me/muted-words", { phrase: "cafe AU lait", action: "warn", contexts: ["search"], duration: "1d" });
    expect(again.json._id).toBe(add.json._id);
    expect(again.json).toMatchObject({ phrase: "cafe AU lait", action: "warn", contexts: ["search"] });
    expect(again.json.expiresAt).not.toBeNull();
    expect((await p.client.get("/api/profile/me/muted-words")).json.words).toHaveLength(1);
    const other = await signedUp("mwapi");
    expect((await other.client.get("/api/profile/me/muted-words")).json.words).toEqual([]);
    // someone else's id removes nothing of mine
    expect((await other.client.delete(`/api/profile/me/muted-words/${add.json._id}`)).status).toBe(200);
    expect((await p.client.get("/api/profile/me/muted-words")).json.words).toHaveLength(1);
    expect((await p.client.delete(`/api/profile/me/muted-words/${add.json._id}`)).status).toBe(200);
    expect((await p.client.delete(`/api/profile/me/muted-words/${add.json._id}`)).status).toBe(200);
    expect((await p.client.get("/api/profile/me/muted-words")).json.words).toEqual([]);
  });

  it("bad input: a clear 400, nothing written; signed out: 401", async () => {
    const p = await signedUp("mwbad");
    const bad: [unknown, string][] = [
      [{}, "phrase"],
      [{ phrase: "" }, "phrase"],
      [{ phrase: "!!! ???" }, "letter or a digit"],
      [{ phrase: "x".repeat(51) }, "at most 50"],
      [{ phrase: "ok", action: "shout" }, "action"],
      [{ phrase: "ok", contexts: [] }, "contexts"],
      [{ phrase: "ok", contexts: ["everywhere"] }, "contexts"],
      [{ phrase: "ok", duration: "2y" }, "duration"],
      [{ phrase: 5 }, "phrase"],
    ];
    for (const [body, message] of bad) {
      const res = await p.client.post("/api/profile/me/muted-words", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expectErrorShape(res.json);
      expect(JSON.stringify(res.json), JSON.stringify(body)).toContain(message);
    }
    expect((await p.client.get("/api/profile/me/muted-words")).json.words).toEqual([]);
    const guest = await fetch(`${process.env.TEST_BASE_URL}/api/profile/me/muted-words`);
    expect(guest.status).toBe(401);
  });
});

describe(`muted words in every context, ${WORDS} words`, () => {
  beforeAll(async () => {
    for (let i = 0; i < WORDS - 2; i++) {
      const res = await viewer.client.post("/api/profile/me/muted-words", { phrase: `filler${i} words` });
      expect(res.status, res.text).toBe(200);
    }
    expect((await viewer.client.post("/api/profile/me/muted-words", { phrase: hideWord })).status).toBe(200);
    expect((await viewer.client.post("/api/profile/me/muted-words", { phrase: warnWord, action: "warn" })).status).toBe(200);
    const over = await viewer.client.post("/api/profile/me/muted-words", { phrase: "one more" });
    expect(over.status).toBe(400);
    expect(over.json.message).toContain(`at most ${WORDS}`);
  }, 300_000);

  const lists = () => [
    { name: "All (Home)", path: "/api/echo/all?limit=20", full: true },
    { name: "Following", path: "/api/echo/following?limit=20", full: true },
    { name: "All by tag", path: `/api/echo/all?tag=${tag}&limit=20`, full: true },
    { name: "tag page", path: `/api/echo/tag/${tag}?limit=20`, full: true },
    { name: "curation", path: `/api/scroll/${curationId}/echos?limit=20`, full: true },
    // feeds and search test words after their window: a page may be short, with more to come
    { name: "feed", path: `/api/scroll/${feedId}/echos?limit=20`, full: false },
    { name: "search", path: `/api/search/echos?q=${warnWord}&limit=20`, full: false },
  ];

  it("every list: no hidden word, warned ones marked, full pages (where the list steps over in SQL), ≤ 2 rt, ≤ 200 rows", async () => {
    const table: string[] = ["| list | echos | warned | rt | rows |", "|---|---|---|---|---|"];
    for (const list of lists()) {
      const res = await timed(viewer.client, list.path);
      expect(res.status, list.name).toBe(200);
      const echos = res.json!.echos as { content: string; mutedWord?: string }[];
      table.push(`| ${list.name} | ${echos.length} | ${echos.filter((e) => e.mutedWord).length} | ${res.roundTrips} | ${res.rows} |`);
      expect(echos.some((e) => e.content.toLowerCase().includes(hideWord)), list.name).toBe(false);
      for (const e of echos) expect(e.mutedWord, list.name).toBe(e.content.includes(warnWord) ? warnWord : undefined);
      if (list.full) expect(echos, list.name).toHaveLength(20);
      expect(res.roundTrips, list.name).toBeLessThanOrEqual(2);
      expect(res.rows, list.name).toBeLessThanOrEqual(MAX_ROWS);
    }
    console.warn(`muted words over HTTP (${WORDS} words, 2 in 5 candidates hidden, 1 in 5 warned):\n${table.join("\n")}`);
  });

  it("notifications: a mention with a hidden word is left out", async () => {
    const res = await timed(viewer.client, "/api/notifications");
    const mentions = (res.json!.notifications as { kind: string; echo: { excerpt: string } | null }[]).filter((n) => n.kind === "mention");
    expect(mentions.map((n) => n.echo?.excerpt)).toEqual([`@${viewer.user.userName} hello`]);
    expect(res.rows).toBeLessThanOrEqual(MAX_ROWS);
  });

  it("a word for one context only leaves the others alone", async () => {
    const p = await signedUp("mwctx");
    expect((await p.client.post("/api/profile/me/muted-words", { phrase: hideWord, contexts: ["search"] })).status).toBe(200);
    const tagPage = await p.client.get(`/api/echo/tag/${tag}?limit=40`);
    expect(tagPage.json.echos.some((e: { content: string }) => e.content.toLowerCase().includes(hideWord))).toBe(true);
    const search = await p.client.get(`/api/search/echos?q=${hideWord}&limit=20`);
    expect(search.json.echos).toEqual([]);
  });
});
