// One socket per page (issue 31, decision 016 "One socket per page"): a tag page and a curation
// sit on an "all" shard with their own filter, so the one socket brings the page's new echos and
// every edit and deletion — a quote's embedded echo's too, which no tag or curation names; a
// curation's adds reach its pages only. A deleted reply's message names its parent, so an open
// thread lowers that parent's count even where it never showed the reply.
import { beforeAll, describe, expect, it } from "vitest";
import { signedUp, type Client } from "./client";
import { liveOpener, postAt, received, uniq } from "./live-client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Person = Awaited<ReturnType<typeof signedUp>>;

const live = liveOpener();
const post = postAt;

async function curation(client: Client, isPrivate = false) {
  const res = await client.post("/api/scroll/create", { name: uniq("Cur "), type: "curation", isPrivate });
  expect(res.status, res.text).toBe(201);
  return res.json.scroll as Json;
}

async function add(client: Client, scrollId: string, echoId: string) {
  const res = await client.post(`/api/scroll/${scrollId}/add-echo`, { echoId });
  expect(res.status, res.text).toBe(200);
}

let reader: Person;
let author: Person;

beforeAll(async () => {
  [reader, author] = (await Promise.all([signedUp("l1r"), signedUp("l1a")])) as [Person, Person];
}, 600_000);

describe("a tag page's and a curation's one socket", () => {
  it("takes the edit and the deletion of a quoted echo that carries none of its tags and is in no curation", async () => {
    const tag = uniq("q");
    const quoted = await post(author.client, "/api/echo/post", "words someone quotes");
    const quote = await post(author.client, `/api/echo/${quoted._id}/quote`, "look at this", [tag]);
    const list = await curation(reader.client);
    await add(reader.client, list._id, quote._id);
    const sockets = { tag: await live(reader, `tag=${tag}`), curation: await live(reader, `scroll=${list._id}`) };
    const res = await author.client.patch(`/api/echo/${quoted._id}/edit`, { content: "words someone quotes, edited", tags: [] });
    expect(res.status, res.text).toBe(200);
    for (const [name, socket] of Object.entries(sockets)) {
      expect((await received(socket, [quoted._id])).map((m) => [m.type, m.echo.content]), name).toEqual([["edit", "words someone quotes, edited"]]);
    }
    expect((await author.client.delete(`/api/echo/delete/${quoted._id}`)).status).toBe(200);
    for (const [name, socket] of Object.entries(sockets)) expect(await received(socket, [quoted._id]), name).toEqual([{ type: "delete", echo: { _id: quoted._id } }]);
  });

  it("a tag page takes the new echos with its tag only; a curation its adds only, and no other page takes them", async () => {
    const tag = uniq("t");
    const mine = await curation(reader.client);
    const other = await curation(reader.client);
    const sockets = { tag: await live(reader, `tag=${tag}`), curation: await live(reader, `scroll=${mine._id}`), all: await live(reader, "all=1") };
    const tagged = await post(author.client, "/api/echo/post", "with the tag", [tag]);
    const plain = await post(author.client, "/api/echo/post", "without it");
    const ids = [tagged._id, plain._id];
    expect((await received(sockets.tag, ids)).map((m) => m.echo._id)).toEqual([tagged._id]);
    expect((await received(sockets.all, ids)).map((m) => m.echo._id).sort()).toEqual([...ids].sort());
    // posting is no add: the curation's page takes nothing of them
    expect(await received(sockets.curation, ids, 500)).toEqual([]);
    // an add to another curation: not this one's; an add to this one: once, here only
    await add(reader.client, other._id, plain._id);
    await add(reader.client, mine._id, tagged._id);
    expect((await received(sockets.curation, ids)).map((m) => [m.type, m.echo._id])).toEqual([["echo", tagged._id]]);
    expect(await received(sockets.all, ids, 500)).toEqual([]);
    expect(await received(sockets.tag, ids, 500)).toEqual([]);
  });

  it("an add to a private curation reaches its creator's socket only", async () => {
    const secret = await curation(reader.client, true);
    const echo = await post(author.client, "/api/echo/post", "kept for later");
    const [mine, all] = [await live(reader, `scroll=${secret._id}`), await live(author, "all=1")];
    await add(reader.client, secret._id, echo._id);
    expect((await received(mine, [echo._id])).map((m) => m.type)).toEqual(["echo"]);
    expect(await received(all, [echo._id], 500)).toEqual([]);
  });
});

describe("a deleted reply names its parent", () => {
  it("on every page: a thread lowers the count of the echo it answered, shown or not", async () => {
    const root = await post(author.client, "/api/echo/post", "a root");
    const first = await post(author.client, `/api/echo/${root._id}/reply`, "a first reply");
    const nested = await post(author.client, `/api/echo/${first._id}/reply`, "a nested reply");
    const deep = await post(author.client, `/api/echo/${nested._id}/reply`, "deeper than the root's page shows");
    const sockets = { thread: await live(reader, `echo=${root._id}`), all: await live(reader, "all=1") };
    expect((await author.client.delete(`/api/echo/delete/${deep._id}`)).status).toBe(200);
    const wanted = { type: "delete", echo: { _id: deep._id, parentId: nested._id } };
    for (const [name, socket] of Object.entries(sockets)) expect(await received(socket, [deep._id]), name).toEqual([wanted]);
    // the count the page lowers is the one a reload reads
    const thread = (await reader.client.get(`/api/echo/${first._id}/thread`)).json as Json;
    expect(thread.replies.find((r: Json) => r._id === nested._id).echo.commentsCount).toBe(0);
  });
});
