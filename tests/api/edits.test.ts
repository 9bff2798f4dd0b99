// Edits with history and content warnings (issue 31, docs/decisions/025-edits-and-warnings.md),
// over real HTTP: an edit moves the echo between tag pages, counts, search and feeds (through the
// feed index's change stream), keeps the replaced version, and only the author may make it.
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { BASE_URL, Client, d1Cost, expectErrorShape, freshWindow, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const uniq = (p = "ed") => p + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

async function post(client: Client, body: Json) {
  const res = await client.post("/api/echo/post", body);
  expect(res.status, res.text).toBe(201);
  return res.json.echo as Json;
}

/** A PATCH as the client with its D1 cost (Server-Timing). */
async function patchTimed(client: Client, path: string, body: Json) {
  const res = await fetch(BASE_URL + path, {
    method: "PATCH",
    headers: { Cookie: client.cookie, "Content-Type": "application/json", Origin: BASE_URL },
    body: JSON.stringify(body),
  });
  return { status: res.status, ...d1Cost(res, path), json: (await res.json()) as Json };
}

const tagTotal = async (client: Client, tag: string) => (await client.get(`/api/echo/tag/${tag}`)).json.pagination.total as number;
const tagIds = async (client: Client, tag: string) => ((await client.get(`/api/echo/tag/${tag}`)).json.echos as Json[]).map((e) => e._id);
const searchIds = async (client: Client, q: string) =>
  ((await client.get(`/api/search/echos?q=${encodeURIComponent(q)}`)).json.echos as Json[]).map((e) => e._id);

describe("PATCH /api/echo/{id}/edit", () => {
  it("rewrites text and tags: tag pages, tag counts and search follow, the old version is kept, within budget", async () => {
    const { client, user } = await signedUp("ed");
    const [before, after, kept] = [uniq(), uniq(), uniq()];
    const oldWord = uniq("old");
    const newWord = uniq("new");
    const echo = await post(client, { content: `first ${oldWord}`, tags: [before, kept] });
    expect(echo.editedAt).toBeUndefined();
    expect([await tagTotal(client, before), await tagTotal(client, after)]).toEqual([1, 0]);

    // the #tag typed in the text becomes a tag, as on post
    const edit = await patchTimed(client, `/api/echo/${echo._id}/edit`, { content: `second ${newWord} #${after}`, tags: [kept] });
    expect(edit.status).toBe(200);
    expect(edit.roundTrips).toBeLessThanOrEqual(2);
    expect(edit.rows).toBeLessThanOrEqual(200);
    expect(edit.json.echo).toMatchObject({ _id: echo._id, content: `second ${newWord} #${after}`, author: { _id: user._id } });
    expect(edit.json.echo.tags.map((t: Json) => t.name)).toEqual([kept, after]);
    expect(Date.parse(edit.json.echo.editedAt)).toBeGreaterThanOrEqual(Date.parse(echo.createdAt));

    // tag pages and the trigger-kept counts: the removed tag is gone (no orphan), the new one counts it
    expect(await tagIds(client, before)).toEqual([]);
    expect(await tagIds(client, after)).toEqual([echo._id]);
    expect(await tagIds(client, kept)).toEqual([echo._id]);
    expect([await tagTotal(client, before), await tagTotal(client, after), await tagTotal(client, kept)]).toEqual([0, 1, 1]);
    // search: the new words and tag find it, the old ones no longer do
    expect(await searchIds(client, newWord)).toEqual([echo._id]);
    expect(await searchIds(client, `#${after}`)).toEqual([echo._id]);
    expect(await searchIds(client, oldWord)).toEqual([]);
    expect(await searchIds(client, `#${before}`)).toEqual([]);
    // everyone reads the edited echo, with its time
    const { client: other } = await signedUp("eo");
    const read = await other.get(`/api/echo/echo/${echo._id}`);
    expect(read.json.echo).toMatchObject({ content: `second ${newWord} #${after}`, editedAt: edit.json.echo.editedAt });

    // the history: the version as posted, readable by anyone who can read the echo, within budget
    const history = await fetch(`${BASE_URL}/api/echo/${echo._id}/history`, { headers: { Cookie: other.cookie } });
    expect(history.status).toBe(200);
    expect(d1Cost(history).roundTrips).toBeLessThanOrEqual(2);
    expect(d1Cost(history).rows).toBeLessThanOrEqual(200);
    const body = (await history.json()) as Json;
    expect(body.versions).toEqual([{ version: 0, content: `first ${oldWord}`, tags: [before, kept], createdAt: echo.createdAt }]);
    expect(body.pagination).toEqual({ limit: 20, hasMore: false, nextCursor: null });
  });

  it("a like count carries over to the new tag's most-liked page; an edit that changes nothing keeps no version", async () => {
    const { client } = await signedUp("el");
    const { client: fan } = await signedUp("ef");
    const [a, b] = [uniq(), uniq()];
    const echo = await post(client, { content: "liked", tags: [a] });
    expect((await fan.post(`/api/echo/like/${echo._id}`)).status).toBe(200);
    expect((await client.patch(`/api/echo/${echo._id}/edit`, { content: "liked", tags: [b] })).status).toBe(200);
    const page = (await client.get(`/api/echo/tag/${b}?orderBy=likes`)).json.echos as Json[];
    expect(page.map((e) => [e._id, e.likes])).toEqual([[echo._id, 1]]);
    // unlike: the new link's count follows (the like triggers update every link of the echo)
    expect((await fan.delete(`/api/echo/like/${echo._id}`)).status).toBe(200);
    expect(((await client.get(`/api/echo/tag/${b}?orderBy=likes`)).json.echos as Json[])[0]?.likes).toBe(0);

    const same = await client.patch(`/api/echo/${echo._id}/edit`, { content: "liked", tags: [b] });
    expect(same.status).toBe(200);
    expect((await client.get(`/api/echo/${echo._id}/history`)).json.versions).toHaveLength(1);
  });

  it("only the author edits: 403 for another user, 404 for no echo, 401 for a guest; nothing changes", async () => {
    const { client } = await signedUp("ea");
    const { client: other } = await signedUp("eb");
    const tag = uniq();
    const echo = await post(client, { content: "mine", tags: [tag] });
    const denied = await other.patch(`/api/echo/${echo._id}/edit`, { content: "theirs", tags: [] });
    expect(denied.status).toBe(403);
    expectErrorShape(denied.json);
    expect((await other.patch(`/api/echo/01aaaaaaaaaaaaaaaaaaaaaaaa/edit`, { content: "x" })).status).toBe(404);
    expect((await other.patch(`/api/echo/not-an-id/edit`, { content: "x" })).status).toBe(404);
    expect((await new Client().patch(`/api/echo/${echo._id}/edit`, { content: "x" })).status).toBe(401);
    expect((await other.get(`/api/echo/01aaaaaaaaaaaaaaaaaaaaaaaa/history`)).status).toBe(404);
    expect((await new Client().get(`/api/echo/${echo._id}/history`)).status).toBe(401);
    expect((await client.get(`/api/echo/echo/${echo._id}`)).json.echo).toMatchObject({ content: "mine", tags: [{ name: tag }] });
    expect((await client.get(`/api/echo/echo/${echo._id}`)).json.echo.editedAt).toBeUndefined();
    expect((await client.get(`/api/echo/${echo._id}/history`)).json.versions).toEqual([]);
    expect(await tagIds(client, tag)).toEqual([echo._id]);
  });

  it.each([
    [{ content: "" }, "content is required"],
    [{}, "content is required"],
    [{ content: "x".repeat(1001) }, "content must be at most 1000 characters"],
    [{ content: "ok", tags: ["a", "b", "c", "d", "e", "f"] }, "tags: at most 5 tags"],
    [{ content: "#t1 #t2 #t3 #t4 #t5 #t6" }, "tags: at most 5 tags per echo, #tags in the text included (this one has 6)"],
    [{ content: "ok", tags: ["<b>"] }, 'tags: Tags may only contain letters, numbers, "_" and "-" (30 characters at most)'],
    [{ content: "ok", warning: "w".repeat(101) }, "warning must be at most 100 characters"],
    [{ content: "ok", warning: 5 }, "warning must be a string"],
  ])("refuses %j with 400 and changes nothing", async (body, message) => {
    const { client } = await signedUp("ev");
    const echo = await post(client, { content: "as posted", tags: ["keep"] });
    const res = await client.patch(`/api/echo/${echo._id}/edit`, body);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(message);
    expect((await client.get(`/api/echo/echo/${echo._id}`)).json.echo).toMatchObject({ content: "as posted", tags: [{ name: "keep" }] });
    expect((await client.get(`/api/echo/${echo._id}/history`)).json.versions).toEqual([]);
  });

  it("keeps at most 50 edits (409 after), pages the history 20 at a time, and limits edits per account (429)", async () => {
    await freshWindow(10 * 60_000); // the edit limit's fixed 10-minute window: its 61 calls must not straddle the edge
    const { client } = await signedUp("ec");
    const echo = await post(client, { content: "v0" });
    for (let i = 1; i <= 50; i++) {
      const res = await client.patch(`/api/echo/${echo._id}/edit`, { content: `v${i}` });
      expect(res.status, res.text).toBe(200);
    }
    const full = await client.patch(`/api/echo/${echo._id}/edit`, { content: "v51" });
    expect(full.status).toBe(409);
    expect(full.json.error).toBe("This echo has been edited 50 times, the most an echo can be");
    expect((await client.get(`/api/echo/echo/${echo._id}`)).json.echo.content).toBe("v50");

    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await fetch(`${BASE_URL}/api/echo/${echo._id}/history${cursor ? `?cursor=${cursor}` : ""}`, { headers: { Cookie: client.cookie } });
      expect(d1Cost(res).rows).toBeLessThanOrEqual(200);
      const page = (await res.json()) as Json;
      expect(page.versions.length).toBeLessThanOrEqual(20);
      seen.push(...page.versions.map((v: Json) => v.version));
      for (const v of page.versions) expect(v.content).toBe(`v${v.version}`);
      cursor = page.pagination.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => 49 - i));
    expect((await client.get(`/api/echo/${echo._id}/history?cursor=abc`)).status).toBe(400);

    // 60 edits per 10 minutes: 51 so far (the refused one counts); another echo takes 9 more
    const second = await post(client, { content: "w0" });
    for (let i = 1; i <= 9; i++) expect((await client.patch(`/api/echo/${second._id}/edit`, { content: `w${i}` })).status).toBe(200);
    const limited = await client.patch(`/api/echo/${second._id}/edit`, { content: "w10" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await client.get(`/api/echo/echo/${second._id}`)).json.echo.content).toBe("w9");
  });

  it("a feed with an index follows an edit through the change stream: the echo enters, then leaves", async () => {
    const { client } = await signedUp("ei");
    const [hot, other, noise] = [uniq(), uniq(), uniq()];
    const inFeed = await post(client, { content: "in the feed", tags: [hot] });
    const outside = await post(client, { content: "not yet", tags: [other] });
    const feed = (await client.post("/api/scroll/create", { name: "Edits", type: "feed", feedConfig: { includedTags: [hot], excludedTags: [noise] } })).json.scroll;
    const path = `/api/scroll/${feed._id}/echos?limit=20`;
    const until = async (ok: (page: Json) => boolean) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const res = await client.get(path);
        if (ok(res.json) || Date.now() > deadline) return res.json;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const ids = (page: Json) => (page.echos as Json[]).map((e) => e._id);
    expect(ids(await until((p) => p.feedIndex === "ready"))).toEqual([inFeed._id]);

    expect((await client.patch(`/api/echo/${outside._id}/edit`, { content: "now in", tags: [hot] })).status).toBe(200);
    expect(ids(await until((p) => ids(p).length === 2))).toEqual([outside._id, inFeed._id]);
    // an excluded tag added by the edit takes it out again
    expect((await client.patch(`/api/echo/${inFeed._id}/edit`, { content: `out #${noise}`, tags: [hot] })).status).toBe(200);
    const last = await until((p) => ids(p).length === 1);
    expect(last.feedIndex).toBe("ready");
    expect(ids(last)).toEqual([outside._id]);
  });
});

describe("content warnings", () => {
  it("are set on post, changed or removed by an edit, kept in the history, and read by everyone", async () => {
    const { client } = await signedUp("cw");
    const { client: reader } = await signedUp("cr");
    const echo = await post(client, { content: "spoilers ahead", tags: ["film"], warning: "  Film spoilers  " });
    expect(echo.warning).toBe("Film spoilers");
    expect((await reader.get(`/api/echo/echo/${echo._id}`)).json.echo.warning).toBe("Film spoilers");
    // a blank warning is none
    expect((await post(client, { content: "plain", warning: "   " })).warning).toBeUndefined();

    const edited = await client.patch(`/api/echo/${echo._id}/edit`, { content: "spoilers ahead", tags: ["film"] });
    expect(edited.status).toBe(200);
    expect(edited.json.echo.warning).toBeUndefined();
    expect(edited.json.echo.editedAt).toBeDefined();
    const history = (await reader.get(`/api/echo/${echo._id}/history`)).json.versions;
    expect(history).toEqual([expect.objectContaining({ version: 0, content: "spoilers ahead", warning: "Film spoilers" })]);
    // in lists too
    const mine = (await reader.get(`/api/echo/tag/film`)).json.echos as Json[];
    expect(mine.find((e) => e._id === echo._id)?.warning).toBeUndefined();
  });
});

describe("content warnings in notifications", () => {
  it("preview a warned echo by its warning, never its text", async () => {
    const { client } = await signedUp("cn");
    const { client: friend, user: friendUser } = await signedUp("cm");
    const secret = uniq("secret");
    await post(client, { content: `@${friendUser.userName} ${secret}`, warning: "Plot twist" });
    const list = (await friend.get("/api/notifications")).json;
    const mention = (list.notifications as Json[]).find((n) => n.kind === "mention");
    expect(mention?.echo.excerpt).toBe("CW: Plot twist");
    expect(JSON.stringify(list)).not.toContain(secret);
  });
});

describe("content warnings in web feeds", () => {
  it("title and summarise a warned echo by its warning; the text is only in the content, after it", async () => {
    const { client, user } = await signedUp("cf");
    const secret = uniq("secret");
    const echo = await post(client, { content: `${secret} the ending`, warning: "Ending spoiler" });
    const guest = new Client();
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" });
    const atom = parser.parse((await guest.get(`/user/${user.userName}/feed.atom`)).text).feed.entry;
    expect(String(atom.title["#text"] ?? atom.title)).toBe("CW: Ending spoiler");
    expect(String(atom.summary["#text"] ?? atom.summary)).toBe("Ending spoiler");
    expect(String(atom.content["#text"])).toContain(secret);
    const rss = parser.parse((await guest.get(`/user/${user.userName}/feed.rss`)).text).rss.channel.item;
    expect(String(rss.title)).toBe("CW: Ending spoiler");
    expect(String(rss.description)).toBe("Ending spoiler");
    expect(String(rss["content:encoded"])).toContain(secret);
    const json = JSON.parse((await guest.get(`/user/${user.userName}/feed.json`)).text).items[0];
    expect(json).toMatchObject({ id: echo._id, title: "CW: Ending spoiler", summary: "Ending spoiler" });
    expect(json.content_text).toBe(`Content warning: Ending spoiler\n\n${secret} the ending`);
    // an edit shows in the Atom entry's updated time
    const edited = (await client.patch(`/api/echo/${echo._id}/edit`, { content: "rewritten", warning: "Ending spoiler" })).json.echo;
    const again = parser.parse((await guest.get(`/user/${user.userName}/feed.atom`)).text).feed.entry;
    expect(Date.parse(again.updated)).toBe(Date.parse(edited.editedAt));
  });
});
