// Live conversation (issue 31, decision 016): the pages no feed channel covers get edits and
// deletions on their own socket — an echo's page (`echo=<id>`, which also brings the new replies
// to that echo), search results (`edits=search`), a curation's or tag page's quotes
// (`edits=feeds`, `edits=tags`); an edit follows each reader's muted words as a new echo does
// (a warn word: `mutedWord`; a hide word: `{ type: "hide" }`, the page drops its copies); a
// repost follows the reader's Home words; a deletion reaches every open page.
import { beforeAll, describe, expect, it } from "vitest";
import { expectErrorShape, signedUp } from "./client";
import { handshake, liveOpener, postAt, received, uniq } from "./live-client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Person = Awaited<ReturnType<typeof signedUp>>;

const live = liveOpener();
const post = postAt;


let reader: Person;
let author: Person;
let hideWord: string;
let warnWord: string;

beforeAll(async () => {
  [reader, author] = (await Promise.all([signedUp("lcr"), signedUp("lca")])) as [Person, Person];
  hideWord = uniq("hidew");
  warnWord = uniq("warnw");
  const every = ["home", "feeds", "tags", "search", "notifications"];
  for (const [phrase, action] of [[hideWord, "hide"], [warnWord, "warn"]]) {
    const res = await reader.client.post("/api/profile/me/muted-words", { phrase, action, contexts: every, duration: "forever" });
    expect(res.status, res.text).toBe(200);
  }
}, 600_000);

describe("live edits on the pages with no feed channel", () => {
  it("an edit reaches an echo's page, search results and a curation's quotes; a reply's edit its thread", async () => {
    const root = await post(author.client, "/api/echo/post", "the root words");
    const reply = await post(author.client, `/api/echo/${root._id}/reply`, "a reply to it");
    const sockets = {
      echo: await live(reader, `echo=${root._id}`),
      search: await live(reader, "edits=search"),
      feeds: await live(reader, "edits=feeds"),
      tags: await live(reader, "edits=tags"),
    };
    const res = await author.client.patch(`/api/echo/${root._id}/edit`, { content: "the root, edited", tags: [], warning: "spoilers" });
    expect(res.status, res.text).toBe(200);
    const edited = res.json.echo as Json;
    const wanted = { type: "edit", echo: { _id: root._id, content: "the root, edited", tags: [], editedAt: edited.editedAt, warning: "spoilers", author: { _id: author.user._id } } };
    for (const [name, socket] of Object.entries(sockets)) expect(await received(socket, [root._id]), name).toEqual([wanted]);
    // a reply in the thread: the echo's page patches it too
    expect((await author.client.patch(`/api/echo/${reply._id}/edit`, { content: "the reply, edited", tags: [] })).status).toBe(200);
    expect((await received(sockets.echo, [reply._id])).map((m) => [m.type, m.echo.content])).toEqual([["edit", "the reply, edited"]]);
  });

  it("an edit follows the reader's words: a warn word marks it, a plain patch lifts the mark, a hide word hides it", async () => {
    const echo = await post(author.client, "/api/echo/post", "harmless at first");
    const sockets = { all: await live(reader, "all=1"), search: await live(reader, "edits=search"), feeds: await live(reader, "edits=feeds") };
    const own = await live(author, "edits=search");
    const edit = async (content: string) => expect((await author.client.patch(`/api/echo/${echo._id}/edit`, { content, tags: [] })).status).toBe(200);

    await edit(`now with ${warnWord} in it`);
    for (const [name, socket] of Object.entries(sockets)) {
      const [m] = await received(socket, [echo._id]);
      expect([m?.type, m?.echo.mutedWord], name).toEqual(["edit", warnWord]);
    }
    // the words are the reader's: the author's own page gets the plain patch
    expect((await received(own, [echo._id]))[0]?.echo.mutedWord).toBeUndefined();

    await edit("harmless again");
    expect((await received(own, [echo._id]))[0]?.echo.content).toBe("harmless again");
    for (const [name, socket] of Object.entries(sockets)) {
      const [m] = await received(socket, [echo._id]);
      expect([m?.type, m?.echo.content, "mutedWord" in (m?.echo ?? {})], name).toEqual(["edit", "harmless again", false]);
    }

    await edit(`now with ${hideWord} in it`);
    // the new text never reaches the reader: the page drops the copies it holds
    for (const [name, socket] of Object.entries(sockets)) expect(await received(socket, [echo._id]), name).toEqual([{ type: "hide", echo: { _id: echo._id } }]);
    expect((await received(own, [echo._id]))[0]?.echo.content).toBe(`now with ${hideWord} in it`);
  });

  it("a blocked author's edit reaches none of the blocker's pages, not even as a hide", async () => {
    const blocked = await signedUp("lcb");
    const echo = await post(blocked.client, "/api/echo/post", "before the block");
    expect((await reader.client.post(`/api/profile/user/${blocked.user._id}/block`)).status).toBe(200);
    const sockets = [await live(reader, `echo=${echo._id}`), await live(reader, "edits=search")];
    expect((await blocked.client.patch(`/api/echo/${echo._id}/edit`, { content: `after, with ${hideWord}`, tags: [] })).status).toBe(200);
    for (const socket of sockets) expect(await received(socket, [echo._id], 800)).toEqual([]);
  });

  it("answers a bad echo id or page with the API's errors", async () => {
    for (const path of ["/api/live?echo=nope", "/api/live?edits=home", "/api/live?edits=search&all=1", "/api/live?echo=01aaaaaaaaaaaaaaaaaaaaaaaa&edits=search"]) {
      const res = await handshake(path, { Cookie: reader.client.cookie });
      expect(res.status, path).toBe(400);
      expectErrorShape(res.json ?? undefined);
    }
    expect((await handshake("/api/live?edits=search", {})).status).toBe(401);
  });
});

describe("live replies on an echo's page", () => {
  it("a new reply to the echo arrives; a reply elsewhere, a new echo and a blocked replier's reply do not", async () => {
    const root = await post(author.client, "/api/echo/post", "a conversation starts");
    const other = await post(author.client, "/api/echo/post", "another conversation");
    const socket = await live(reader, `echo=${root._id}`);
    const blocked = await signedUp("lcx");
    expect((await reader.client.post(`/api/profile/user/${blocked.user._id}/block`)).status).toBe(200);
    const hidden = await post(blocked.client, `/api/echo/${root._id}/reply`, "from someone blocked");
    const elsewhere = await post(author.client, `/api/echo/${other._id}/reply`, "not this thread");
    const plain = await post(author.client, "/api/echo/post", "not a reply");
    const reply = await post(author.client, `/api/echo/${root._id}/reply`, `a reply with ${hideWord}`);
    const got = await received(socket, [hidden._id, elsewhere._id, plain._id, reply._id], 2500);
    // a thread applies no muted words (decision 024): the reply comes as the thread shows it
    expect(got).toEqual([{ type: "echo", echo: reply }]);
    expect(reply.parentId).toBe(root._id);
  });
});

describe("live replies anywhere in a thread", () => {
  it("a reply to a reply reaches the pages of every echo above it in its conversation, not another's", async () => {
    const root = await post(author.client, "/api/echo/post", "a conversation with depth");
    const first = await post(author.client, `/api/echo/${root._id}/reply`, "a first reply");
    const second = await post(author.client, `/api/echo/${first._id}/reply`, "a reply to the reply");
    const other = await post(author.client, "/api/echo/post", "another conversation");
    const sockets = {
      root: await live(reader, `echo=${root._id}`),
      first: await live(reader, `echo=${first._id}`),
      second: await live(reader, `echo=${second._id}`),
    };
    const elsewhere = await live(reader, `echo=${other._id}`);
    const blocked = await signedUp("lcy");
    expect((await reader.client.post(`/api/profile/user/${blocked.user._id}/block`)).status).toBe(200);
    const hidden = await post(blocked.client, `/api/echo/${first._id}/reply`, "nested, from someone blocked");
    const deep = await post(author.client, `/api/echo/${second._id}/reply`, "three levels down");
    // the wire carries the echo as the API returns it (the conversation picks the pages, it is not sent)
    for (const [name, socket] of Object.entries(sockets)) expect(await received(socket, [deep._id, hidden._id], 2500), name).toEqual([{ type: "echo", echo: deep }]);
    expect(await received(elsewhere, [deep._id, hidden._id], 500)).toEqual([]);
  });

  it("a deleted echo's page still takes its conversation's new replies", async () => {
    const root = await post(author.client, "/api/echo/post", "a root that goes");
    const reply = await post(author.client, `/api/echo/${root._id}/reply`, "a reply that stays");
    expect((await author.client.delete(`/api/echo/delete/${root._id}`)).status).toBe(200);
    const socket = await live(reader, `echo=${root._id}`);
    const nested = await post(author.client, `/api/echo/${reply._id}/reply`, "under the reply");
    expect(await received(socket, [nested._id], 2500)).toEqual([{ type: "echo", echo: nested }]);
  });
});

describe("live deletions", () => {
  it("a deleted echo leaves every open page: All, Following, a tag page's and search's edits socket, its thread", async () => {
    const tag = uniq("del");
    expect((await reader.client.post(`/api/profile/user/${author.user._id}/follow`)).status).toBe(200);
    const root = await post(author.client, "/api/echo/post", "a parent to delete", [tag]);
    const reply = await post(author.client, `/api/echo/${root._id}/reply`, "a reply that stays");
    const sockets = {
      all: await live(reader, "all=1"),
      following: await live(reader, "following=1"),
      tags: await live(reader, "edits=tags"),
      search: await live(reader, "edits=search"),
      thread: await live(reader, `echo=${reply._id}`),
    };
    expect((await author.client.delete(`/api/echo/delete/${root._id}`)).status).toBe(200);
    for (const [name, socket] of Object.entries(sockets)) expect(await received(socket, [root._id]), name).toEqual([{ type: "delete", echo: { _id: root._id } }]);
    // the reply's thread keeps the parent's place
    const thread = (await reader.client.get(`/api/echo/${reply._id}/thread`)).json as Json;
    expect(thread.ancestors.map((a: Json) => [a._id, a.echo])).toEqual([[root._id, null]]);
    // a refused delete (not the author) sends nothing
    expect((await reader.client.delete(`/api/echo/delete/${reply._id}`)).status).toBe(403);
    expect(await received(sockets.all, [reply._id], 500)).toEqual([]);
  });
});

describe("live account deletions", () => {
  it("a deleted account's echos and replies leave every open page at once: one message naming the author", async () => {
    const leaving = await signedUp("lcd");
    const root = await post(author.client, "/api/echo/post", "a thread the leaver replied to");
    const reply = await post(leaving.client, `/api/echo/${root._id}/reply`, "a reply that goes with its account");
    const own = await post(leaving.client, "/api/echo/post", "an echo that goes with its account");
    const sockets = {
      all: await live(reader, "all=1"),
      thread: await live(reader, `echo=${root._id}`),
      replyPage: await live(reader, `echo=${reply._id}`),
      search: await live(reader, "edits=search"),
    };
    const res = await leaving.client.request("DELETE", "/api/profile/me", { password: "pass1234" });
    expect(res.status, res.text).toBe(200);
    const gone = { type: "delete", author: { _id: leaving.user._id } };
    for (const [name, socket] of Object.entries(sockets)) {
      const got: Json[] = [];
      for (let m = await socket.next(3000); m; m = await socket.next(500)) if (m.author?._id === leaving.user._id || [own._id, reply._id].includes(m.echo?._id)) got.push(m);
      expect(got, name).toEqual([gone]);
    }
  });
});

describe("live reposts and muted words", () => {
  it("a repost of an echo with the reader's hide word stays off their Following; a warn word marks it", async () => {
    const reposter = await signedUp("lcp");
    expect((await reader.client.post(`/api/profile/user/${reposter.user._id}/follow`)).status).toBe(200);
    const hidden = await post(author.client, "/api/echo/post", `reposted ${hideWord} words`);
    const warned = await post(author.client, "/api/echo/post", `reposted ${warnWord} words`);
    const plain = await post(author.client, "/api/echo/post", "reposted plain words");
    const following = await live(reader, "following=1");
    for (const echo of [hidden, warned, plain]) expect((await reposter.client.post(`/api/echo/${echo._id}/repost`)).status).toBe(200);
    const got = await received(following, [hidden._id, warned._id, plain._id], 2500);
    expect(got.map((m) => [m.echo._id, m.echo.mutedWord ?? null, !!m.echo.repost])).toEqual([
      [warned._id, warnWord, true],
      [plain._id, null, true],
    ]);
    // as the Following page itself shows them
    const page = (await reader.client.get("/api/echo/following?limit=10")).json.echos as Json[];
    // the repost entries (the reader may follow the author too: the originals are other entries)
    const shown = page.filter((e) => e.repost && [hidden._id, warned._id, plain._id].includes(e._id));
    expect(shown.map((e) => [e._id, e.mutedWord ?? null])).toEqual([
      [plain._id, null],
      [warned._id, warnWord],
    ]);
  });
});
