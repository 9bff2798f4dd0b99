import { describe, expect, it } from "vitest";
import { Client, expectErrorShape, signedUp } from "./client";

async function post(client: Client, content: string, tags: string[] = []) {
  const res = await client.post("/api/echo/post", { content, tags });
  if (res.status !== 201) throw new Error(`post failed ${res.status} ${res.text}`);
  return res.json.echo as { _id: string; likes: number; tags: { _id: string; name: string }[]; createdAt: string };
}

describe("POST /api/echo/post", () => {
  it("creates an echo with normalised tags and returns it", async () => {
    const { client, user } = await signedUp("ep");
    const res = await client.post("/api/echo/post", { content: "  Hello world  ", tags: ["#Tech", " life ", "tech", "", "#"] });
    expect(res.status).toBe(201);
    expect(res.json.echo).toMatchObject({
      content: "Hello world",
      author: { _id: user._id, userName: user.userName },
      tags: [{ _id: "tech", name: "tech" }, { _id: "life", name: "life" }],
      likes: 0,
      isLiked: false,
      comments: [],
      shares: 0,
    });
    expect(new Date(res.json.echo.createdAt).toISOString()).toBe(res.json.echo.createdAt);
  });

  it.each([
    [{ content: "" }, "content is required"],
    [{ content: "   " }, "content is required"],
    [{ content: "x".repeat(1001) }, "content must be at most 1000 characters"],
    [{ content: 5 }, "content must be a string"],
    [{}, "content is required"],
    [{ content: "ok", tags: ["a", "b", "c", "d", "e", "f"] }, "tags: at most 5 tags"],
    [{ content: "ok", tags: "tech" }, "tags must be a list of strings"],
    [{ content: "ok", tags: [1] }, "tags must be strings"],
    [{ content: "ok", tags: ["<b>"] }, 'tags: Tags may only contain letters, numbers, "_" and "-" (30 characters at most)'],
    [{ content: "ok", tags: ["t".repeat(31)] }, 'tags: Tags may only contain letters, numbers, "_" and "-" (30 characters at most)'],
  ])("rejects %j with 400 and writes nothing", async (body, message) => {
    const { client, user } = await signedUp("ev");
    const res = await client.post("/api/echo/post", body);
    expect(res.status).toBe(400);
    expectErrorShape(res.json);
    expect(res.json.error).toBe(message);
    const mine = await client.get(`/api/echo/all?user=${user._id}`);
    expect(mine.json.pagination.total).toBe(0);
  });

  it("accepts exactly 1000 characters and 5 tags (duplicates collapse first)", async () => {
    const { client } = await signedUp("ek");
    const res = await client.post("/api/echo/post", { content: "y".repeat(1000), tags: ["a", "b", "c", "d", "e", "A", "#e"] });
    expect(res.status).toBe(201);
    expect(res.json.echo.tags).toHaveLength(5);
  });

  it("answers 401 to a guest", async () => {
    const res = await new Client().post("/api/echo/post", { content: "hi" });
    expect(res.status).toBe(401);
  });
});

describe("typed #tags are tags (issue 29)", () => {
  const tag = (p: string) => `${p}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

  it("a #tag in the text joins the chosen tags: on the echo, its tag page, the tag filter and search", async () => {
    const { client } = await signedUp("ht");
    const intro = tag("intro");
    const res = await client.post("/api/echo/post", { content: `my second try, #${intro.toUpperCase()} and #${intro} again, C# no`, tags: ["life"] });
    expect(res.status).toBe(201);
    expect(res.json.echo.tags).toEqual([{ _id: "life", name: "life" }, { _id: intro, name: intro }]);
    const id = res.json.echo._id;
    expect((await client.get(`/api/echo/echo/${id}`)).json.echo.tags.map((t: { name: string }) => t.name)).toEqual(["life", intro]);
    const onTag = await client.get(`/api/echo/tag/${intro}`);
    expect(onTag.json.echos.map((e: { _id: string }) => e._id)).toEqual([id]);
    const filtered = await client.get(`/api/echo/all?tag=${intro}`);
    expect(filtered.json.echos.map((e: { _id: string }) => e._id)).toEqual([id]);
    const found = await client.get(`/api/search/echos?q=${encodeURIComponent(`#${intro}`)}`);
    expect(found.json.echos.map((e: { _id: string }) => e._id)).toEqual([id]);
  });

  it("counts typed #tags toward the 5: a sixth is a 400 naming tags, and nothing is written", async () => {
    const { client, user } = await signedUp("hu");
    const res = await client.post("/api/echo/post", { content: "five chosen plus #sixth", tags: ["a", "b", "c", "d", "e"] });
    expect(res.status).toBe(400);
    expectErrorShape(res.json);
    expect(res.json.error).toBe("tags: at most 5 tags per echo, #tags in the text included (this one has 6)");
    const textOnly = await client.post("/api/echo/post", { content: "#t1 #t2 #t3 #t4 #t5 #t6 #t7" });
    expect(textOnly.json.error).toBe("tags: at most 5 tags per echo, #tags in the text included (this one has 7)");
    expect((await client.get(`/api/echo/all?user=${user._id}`)).json.pagination.total).toBe(0);
  });

  it("a typed #tag already chosen counts once; exactly 5 together is accepted", async () => {
    const { client } = await signedUp("hv");
    const res = await client.post("/api/echo/post", { content: "#c and #D and #e", tags: ["a", "b", "c", "d"] });
    expect(res.status).toBe(201);
    expect(res.json.echo.tags.map((t: { name: string }) => t.name)).toEqual(["a", "b", "c", "d", "e"]);
  });
});

describe("GET /api/echo/echo/{id} and DELETE /api/echo/delete/{id}", () => {
  it("reads one echo; 404 for unknown or malformed ids", async () => {
    const { client } = await signedUp("eg");
    const echo = await post(client, "one");
    const res = await client.get(`/api/echo/echo/${echo._id}`);
    expect(res.status).toBe(200);
    expect(res.json.echo._id).toBe(echo._id);
    for (const id of ["01aaaaaaaaaaaaaaaaaaaaaaaa", "..%2F..%2Fetc", "x'%20OR%201=1"]) {
      const missing = await client.get(`/api/echo/echo/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.json.error).toBe("Echo not found");
    }
  });

  it("lets only the author delete (403 otherwise); gone afterwards", async () => {
    const { client: author } = await signedUp("ed");
    const { client: other } = await signedUp("eo");
    const echo = await post(author, "mine", ["deltag"]);
    await other.post(`/api/echo/like/${echo._id}`);
    const denied = await other.delete(`/api/echo/delete/${echo._id}`);
    expect(denied.status).toBe(403);
    expectErrorShape(denied.json);
    expect((await author.get(`/api/echo/echo/${echo._id}`)).status).toBe(200);
    const ok = await author.delete(`/api/echo/delete/${echo._id}`);
    expect(ok.status).toBe(200);
    expect((await author.get(`/api/echo/echo/${echo._id}`)).status).toBe(404);
    expect((await author.delete(`/api/echo/delete/${echo._id}`)).status).toBe(404);
    expect((await other.post(`/api/echo/like/${echo._id}`)).status).toBe(404);
  });
});

describe("likes, shares, reports", () => {
  it("like/unlike are idempotent and the count is exact", async () => {
    const { client: a } = await signedUp("la");
    const { client: b } = await signedUp("lb");
    const echo = await post(a, "likeable");
    expect((await b.post(`/api/echo/like/${echo._id}`)).json).toEqual({ likes: 1, isLiked: true });
    expect((await b.post(`/api/echo/like/${echo._id}`)).json).toEqual({ likes: 1, isLiked: true });
    expect((await a.post(`/api/echo/like/${echo._id}`)).json).toEqual({ likes: 2, isLiked: true });
    expect((await b.delete(`/api/echo/like/${echo._id}`)).json).toEqual({ likes: 1, isLiked: false });
    expect((await b.delete(`/api/echo/like/${echo._id}`)).json).toEqual({ likes: 1, isLiked: false });
    const seenByA = (await a.get(`/api/echo/echo/${echo._id}`)).json.echo;
    const seenByB = (await b.get(`/api/echo/echo/${echo._id}`)).json.echo;
    expect([seenByA.likes, seenByA.isLiked, seenByB.isLiked]).toEqual([1, true, false]);
  });

  it("counts a share once per user", async () => {
    const { client: a } = await signedUp("sa");
    const { client: b } = await signedUp("sb");
    const echo = await post(a, "shareable");
    expect((await b.post(`/api/echo/${echo._id}/share`)).json).toEqual({ shares: 1 });
    expect((await b.post(`/api/echo/${echo._id}/share`)).json).toEqual({ shares: 1 });
    expect((await a.post(`/api/echo/${echo._id}/share`)).json).toEqual({ shares: 2 });
  });

  it("records a report with a reason, once per user", async () => {
    const { client: a } = await signedUp("ra");
    const { client: b } = await signedUp("rb");
    const echo = await post(a, "reportable");
    const empty = await b.post(`/api/echo/${echo._id}/report`, { reason: "  " });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe("reason is required");
    expect((await b.post(`/api/echo/${echo._id}/report`, { reason: "spam" })).status).toBe(201);
    const again = await b.post(`/api/echo/${echo._id}/report`, { reason: "spam" });
    expect(again.status).toBe(409);
    expect(again.json.error).toBe("You have already reported this echo");
  });
});

describe("lists", () => {
  it("GET /api/echo/all: newest first, filters, pagination past the end", async () => {
    const { client, user } = await signedUp("ls");
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await post(client, `list ${i}`, ["listtag" + user._id.slice(-6)]));
    const all = await client.get("/api/echo/all?limit=3");
    expect(all.status).toBe(200);
    expect(all.json.pagination).toMatchObject({ page: 1, limit: 3, hasMore: true });
    const mine = await client.get(`/api/echo/all?user=${user._id}&limit=2&page=2`);
    expect(mine.json.echos.map((e: { content: string }) => e.content)).toEqual(["list 2", "list 1"]);
    expect(mine.json.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3, hasMore: true, nextCursor: expect.any(String) });
    const next = await client.get(`/api/echo/all?user=${user._id}&limit=2&page=3&cursor=${mine.json.pagination.nextCursor}`);
    expect(next.json.echos.map((e: { content: string }) => e.content)).toEqual(["list 0"]);
    expect(next.json.pagination.hasMore).toBe(false);
    const past = await client.get(`/api/echo/all?user=${user._id}&limit=2&page=9`);
    expect(past.json.echos).toEqual([]);
    expect(past.json.pagination.hasMore).toBe(false);
    const byTag = await client.get(`/api/echo/all?tag=%23ListTag${user._id.slice(-6)}`);
    expect(byTag.json.echos).toHaveLength(5);
    // All echos' largest page is 35 (LIST_MAX_LIMIT: 5 rows per echo at worst, decision 027)
    expect((await client.get("/api/echo/all?limit=1000")).json.pagination.limit).toBe(35);
    expect((await client.get("/api/echo/all?limit=0")).json.pagination.limit).toBe(1);
    const bad = await client.get("/api/echo/all?page=abc");
    expect(bad.status).toBe(400);
    expectErrorShape(bad.json);
    expect((await client.get("/api/echo/all?cursor=garbage")).status).toBe(400);
  });

  it("GET /api/echo/tag/{name}: each order, time windows and date ranges", async () => {
    const { client: a } = await signedUp("ta");
    const { client: b } = await signedUp("tb");
    const tag = "order" + Date.now().toString(36);
    const first = await post(a, "first", [tag]);
    const second = await post(a, "second", [tag]);
    const third = await post(a, "third", [tag]);
    await b.post(`/api/echo/like/${second._id}`);
    await a.post(`/api/echo/like/${second._id}`);
    await b.post(`/api/echo/like/${first._id}`);
    const names = async (q: string) =>
      (await a.get(`/api/echo/tag/${tag}${q}`)).json.echos.map((e: { content: string }) => e.content);
    expect(await names("")).toEqual(["third", "second", "first"]);
    expect(await names("?orderBy=oldest")).toEqual(["first", "second", "third"]);
    expect(await names("?orderBy=likes")).toEqual(["second", "first", "third"]);
    for (const timeframe of ["1hour", "1day", "1week", "1month", "1year", "all"]) {
      expect(await names(`?orderBy=likes&timeframe=${timeframe}`)).toEqual(["second", "first", "third"]);
    }
    const today = new Date().toISOString().slice(0, 10);
    expect(await names(`?startDate=${today}&endDate=${today}`)).toEqual(["third", "second", "first"]);
    expect(await names(`?startDate=${second.createdAt}`)).toEqual(["third", "second"]);
    expect(await names(`?endDate=${second.createdAt}&orderBy=oldest`)).toEqual(["first", "second"]);
    expect(await names(`?endDate=2001-01-01`)).toEqual([]);
    expect(await names(`?startDate=2999-01-01`)).toEqual([]);
    const bad = await a.get(`/api/echo/tag/${tag}?orderBy=random`);
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("orderBy must be one of newest, oldest, likes");
    expect((await a.get(`/api/echo/tag/${tag}?timeframe=1decade`)).status).toBe(400);
    expect((await a.get(`/api/echo/tag/${tag}?startDate=yesterday`)).status).toBe(400);
    const unknown = await a.get(`/api/echo/tag/never-used-${tag}`);
    expect(unknown.json.echos).toEqual([]);
    expect(unknown.json.pagination.total).toBe(0);
    void third;
  });
});
