// Web feeds (issue 17): Atom 1.0, RSS 2.0 and JSON Feed 1.1 of every public scroll, tag and user,
// over real HTTP and signed out. XML is parsed with fast-xml-parser (a failed parse fails the
// test); JSON Feed is checked for the fields version 1.1 requires.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, Client, expectErrorShape, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const guest = new Client();
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" });
const TYPES = { atom: "application/atom+xml; charset=utf-8", rss: "application/rss+xml; charset=utf-8", json: "application/feed+json; charset=utf-8" };
const HOSTILE = `<script>alert("x")</script> Tom & Jerry <b>bold</b> ]]> end\uFFFF`;
// the entries a web feed carries (WEB_FEED_ENTRIES: 4 rows an entry at worst, decision 027)
const ENTRIES = 44;

let author: Awaited<ReturnType<typeof signedUp>>;
let other: Awaited<ReturnType<typeof signedUp>>;
let tag: string;
const posted: string[] = []; // oldest first
let hostileId: string;
const scrolls: Record<"feed" | "curation" | "private", string> = { feed: "", curation: "", private: "" };

/** The entries of a feed in any format, as { id (the echo id), time, html }. */
function entriesOf(format: keyof typeof TYPES, text: string): { id: string; time: number; html: string; title: string }[] {
  if (format === "json") {
    const feed = JSON.parse(text) as Json;
    return (feed.items as Json[]).map((i) => ({ id: i.id, time: Date.parse(i.date_published), html: i.content_html, title: i.title }));
  }
  expect(XMLValidator.validate(text)).toBe(true);
  const doc = xml.parse(text) as Json;
  const list = (x: unknown) => (x === undefined ? [] : Array.isArray(x) ? x : [x]) as Json[];
  if (format === "atom") {
    expect(doc.feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
    for (const field of ["id", "title", "updated"]) expect(doc.feed[field], field).toBeTruthy();
    return list(doc.feed.entry).map((e) => ({ id: String(e.id).split("/echo/")[1]!, time: Date.parse(e.updated), html: String(e.content["#text"]), title: String(e.title["#text"]) }));
  }
  expect(doc.rss["@version"]).toBe("2.0");
  for (const field of ["title", "link", "description"]) expect(doc.rss.channel[field], field).toBeTruthy();
  return list(doc.rss.channel.item).map((i) => ({ id: String(i.link).split("/echo/")[1]!, time: Date.parse(i.pubDate), html: String(i["content:encoded"]), title: String(i.title) }));
}

beforeAll(async () => {
  [author, other] = await Promise.all([signedUp("wf"), signedUp("wo")]);
  tag = `wf${Date.now().toString(36)}`;
  for (let i = 0; i < 54; i++) {
    const res = await author.client.post("/api/echo/post", { content: `feed echo ${i}`, tags: [tag] });
    expect(res.status).toBe(201);
    posted.push(res.json.echo._id);
  }
  const hostile = await author.client.post("/api/echo/post", { content: HOSTILE, tags: [tag] });
  hostileId = hostile.json.echo._id;
  posted.push(hostileId);
  scrolls.feed = (await author.client.post("/api/scroll/create", { name: "Web feed <scroll> & co", type: "feed", feedConfig: { includedTags: [tag] } })).json.scroll._id;
  scrolls.curation = (await author.client.post("/api/scroll/create", { name: "Curated", type: "curation" })).json.scroll._id;
  for (const id of [posted[3], posted[1], hostileId]) {
    expect((await author.client.post(`/api/scroll/${scrolls.curation}/add-echo`, { echoId: id })).status).toBe(200);
  }
  scrolls.private = (await author.client.post("/api/scroll/create", { name: "Secret", type: "feed", isPrivate: true, feedConfig: { includedTags: [tag] } })).json.scroll._id;
}, 600_000);

describe.each(["atom", "rss", "json"] as const)("%s", (format) => {
  const kinds = () => ({
    feed: { path: `/scroll/${scrolls.feed}/feed.${format}`, newest: posted.slice(-ENTRIES).reverse() },
    curation: { path: `/scroll/${scrolls.curation}/feed.${format}`, newest: [hostileId, posted[1]!, posted[3]!] },
    tag: { path: `/tag/${tag}/feed.${format}`, newest: posted.slice(-ENTRIES).reverse() },
    user: { path: `/user/${author.user.userName}/feed.${format}`, newest: posted.slice(-ENTRIES).reverse() },
  });

  it.each(["feed", "curation", "tag", "user"] as const)("a %s's feed parses, signed out, with its newest 44 entries in order", async (kind) => {
    const { path, newest } = kinds()[kind];
    const res = await guest.get(path);
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    expect(res.headers.get("content-type")).toBe(TYPES[format]);
    const entries = entriesOf(format, res.text);
    expect(entries.length).toBeLessThanOrEqual(ENTRIES);
    // a feed read from its built index carries 24 (INDEX_PAGE_MAX, decision 020; 36 before an
    // echo could read 5 rows, decision 027), from the engine (before this isolate knows the
    // index) 44: the newest ones in order either way
    if (kind === "feed") {
      expect(entries.length).toBeGreaterThanOrEqual(24);
      expect(entries.map((e) => e.id)).toEqual(newest.slice(0, entries.length));
    } else expect(entries.map((e) => e.id)).toEqual(newest);
    if (kind !== "curation") for (let i = 1; i < entries.length; i++) expect(entries[i - 1]!.time).toBeGreaterThanOrEqual(entries[i]!.time);
  });

  it("escapes echo text: markup arrives as text, never as HTML", async () => {
    const res = await guest.get(`/tag/${tag}/feed.${format}`);
    const entry = entriesOf(format, res.text).find((e) => e.id === hostileId)!;
    // once the reader decodes the html field, it shows the characters, not elements
    expect(entry.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; ]]&gt; end");
    expect(entry.html).not.toMatch(/<script|<b>/);
    // JSON Feed's title is plain text by definition; Atom's and RSS's are html, hence escaped
    if (format === "json") expect(entry.title).toBe(HOSTILE);
    else expect(entry.title).not.toMatch(/<script|<b>/);
    // U+FFFF is no XML character: Atom and RSS drop it, JSON keeps the text as posted
    if (format !== "json") expect(res.text).not.toMatch(/<script|<b>|\uFFFF/);
    else expect(entry.html.endsWith("end\uFFFF")).toBe(true);
  });

  it("answers 304 to If-None-Match with its ETag, and 200 once the feed changes", async () => {
    const curation = (await author.client.post("/api/scroll/create", { name: "ETag", type: "curation" })).json.scroll._id;
    await author.client.post(`/api/scroll/${curation}/add-echo`, { echoId: posted[3] });
    const path = `/scroll/${curation}/feed.${format}`;
    const first = await guest.get(path);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await guest.get(path, { "If-None-Match": etag! });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect((await guest.get(path, { "If-None-Match": '"other"' })).status).toBe(200);
    expect((await author.client.post(`/api/scroll/${curation}/add-echo`, { echoId: posted[4] })).status).toBe(200);
    const changed = await guest.get(path, { "If-None-Match": etag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("a private scroll is 404 signed out and for another user; unknown ids and names are 404", async () => {
    for (const client of [guest, other.client]) {
      const res = await client.get(`/scroll/${scrolls.private}/feed.${format}`);
      expect(res.status).toBe(404);
      expectErrorShape(res.json);
    }
    for (const path of [`/scroll/01JZZZZZZZZZZZZZZZZZZZZZZZ/feed.${format}`, `/tag/nosuch${tag}/feed.${format}`, `/user/nosuch${Date.now()}/feed.${format}`]) {
      expect((await guest.get(path)).status, path).toBe(404);
    }
  });
});

describe("the JSON Feed is version 1.1", () => {
  it("has the fields 1.1 requires", async () => {
    const feed = (await guest.get(`/user/${author.user.userName}/feed.json`)).json as Json;
    expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
    expect(typeof feed.title).toBe("string");
    expect(feed.feed_url).toBe(`${BASE_URL}/user/${encodeURIComponent(author.user.userName)}/feed.json`);
    for (const item of feed.items as Json[]) {
      expect(typeof item.id).toBe("string");
      expect(typeof item.content_html === "string" || typeof item.content_text === "string").toBe(true);
      expect(item.authors[0].name).toBe(author.user.userName);
    }
  });
});

describe("bad input", () => {
  it("hostile ids, names and tags are 400 or 404 in the error shape, never 5xx", async () => {
    const paths = [
      "/scroll/..%2F..%2Fetc/feed.atom",
      "/scroll/%00/feed.rss",
      "/scroll/'%20OR%201=1/feed.json",
      `/scroll/${"x".repeat(3000)}/feed.atom`,
      "/tag/%ED%A0%80/feed.atom",
      "/tag/%3Cscript%3E/feed.rss",
      `/tag/${"t".repeat(500)}/feed.json`,
      "/user/%3Cscript%3E/feed.atom",
      "/user/%ED%A0%80/feed.json",
      `/user/${"u".repeat(300)}/feed.rss`,
    ];
    for (const path of paths) {
      const res = await guest.get(path);
      expect([400, 404], `${path} → ${res.status} ${res.text.slice(0, 120)}`).toContain(res.status);
    }
  });
});

describe("the pages name their feeds", () => {
  const alternates = (html: string) =>
    [...html.matchAll(/<link[^>]*rel="alternate"[^>]*>/g)].map((m) => [/type="([^"]+)"/.exec(m[0])?.[1], /href="([^"]+)"/.exec(m[0])?.[1]]);

  it("a scroll, a tag and a profile page carry a <link rel=alternate> per format; a private scroll none", async () => {
    const viewer = other.client;
    const pages: [string, string][] = [
      [`/scroll/${scrolls.feed}`, `/scroll/${scrolls.feed}`],
      [`/tag/${tag}`, `/tag/${tag}`],
      [`/user/${author.user._id}`, `/user/${author.user.userName}`],
    ];
    for (const [page, base] of pages) {
      const res = await viewer.get(page);
      expect(res.status, page).toBe(200);
      expect(alternates(res.text), page).toEqual([
        ["application/atom+xml", `${base}/feed.atom`],
        ["application/rss+xml", `${base}/feed.rss`],
        ["application/feed+json", `${base}/feed.json`],
      ]);
    }
    const mine = await author.client.get(`/scroll/${scrolls.private}`);
    expect(mine.status).toBe(200);
    expect(alternates(mine.text)).toEqual([]);
  });
});
