// Text as it comes in: ill-formed text (unpaired surrogates, control characters, bytes that are
// not UTF-8) is refused with a 400 that names the field and changes nothing, everywhere text
// enters; limits count characters as a person sees them (grapheme clusters). Raw JSON bodies,
// because JSON.stringify would escape nothing here: the server must see "\ud800" as JSON text.
import { describe, expect, it } from "vitest";
import { BASE_URL, Client, expectErrorShape, signedUp, uniqueName } from "./client";

const LONE = "\\ud800"; // a JSON escape: parses to an unpaired high surrogate
const ILL = "must not contain unpaired surrogates or control characters";
const FAMILY = "👨‍👩‍👧‍👦"; // 7 code points, 11 UTF-16 units, one character
const FLAG = "🏴󠁧󠁢󠁳󠁣󠁴󠁿"; // a tagged flag: 14 UTF-16 units, one character

/** A body as raw JSON text, with `@` replaced by the given escape sequence. */
const raw = (json: string, bad = LONE) => json.replaceAll("@", bad);

async function expect400(res: { status: number; json: { error?: string; message?: string } }, message: string) {
  expect(res.status, JSON.stringify(res.json)).toBe(400);
  expectErrorShape(res.json);
  expect(res.json.error).toBe(message);
}

describe("ill-formed text is refused everywhere it comes in", () => {
  it("an echo of 1,000 lone surrogates is refused and nothing is stored", async () => {
    const { client } = await signedUp("ta");
    const body = `{"content":"${LONE.repeat(1000)}","tags":[]}`;
    await expect400(await client.post("/api/echo/post", body), `content ${ILL}`);
    await expect400(await client.post("/api/echo/post", raw(`{"content":"ok","tags":["a@b"]}`)), `tags ${ILL}`);
    // a low surrogate alone, and a reversed pair, are as ill-formed as a high one
    await expect400(await client.post("/api/echo/post", `{"content":"x\\udc00y"}`), `content ${ILL}`);
    await expect400(await client.post("/api/echo/post", `{"content":"\\udc00\\ud800"}`), `content ${ILL}`);
    // control characters: NUL, ESC, DEL, a C1 control
    for (const c of ["\\u0000", "\\u001b", "\\u007f", "\\u0085"]) {
      await expect400(await client.post("/api/echo/post", raw(`{"content":"a@b"}`, c)), `content ${ILL}`);
    }
    // a key that is ill-formed is refused too
    await expect400(await client.post("/api/echo/post", raw(`{"content":"ok","@":1}`)), `Request body (a key) ${ILL}`);
    expect((await client.get("/api/profile/me")).json.echosCount).toBe(0);
    // well-formed text with tabs, line breaks, a real pair (as an escape) and bidi marks is fine
    const ok = await client.post("/api/echo/post", `{"content":"line 1\\n\\tline 2 \\ud83d\\ude00 \\u202eevil\\u202c","tags":[]}`);
    expect(ok.status).toBe(201);
    expect(ok.json.echo.content).toBe("line 1\n\tline 2 😀 \u202eevil\u202c");
  });

  it("a body nested thousands deep is checked without overflowing (400, not 500)", async () => {
    const { client } = await signedUp("tn");
    const deep = '{"a":'.repeat(3000) + '"\\ud800"' + "}".repeat(3000);
    await expect400(await client.post("/api/echo/post", deep), `${Array(3000).fill("a").join(".")} ${ILL}`);
    const fine = '{"a":'.repeat(3000) + "1" + "}".repeat(3000);
    expect((await client.post("/api/echo/post", fine)).status).toBe(400);
    expect((await client.get("/api/profile/me")).json.echosCount).toBe(0);
  });

  it("bytes that are not UTF-8 are refused, not turned into '�'", async () => {
    const { client } = await signedUp("tb");
    const bytes = new Uint8Array([...new TextEncoder().encode('{"content":"a'), 0xed, 0xa0, 0x80, ...new TextEncoder().encode('"}')]);
    const res = await fetch(`${BASE_URL}/api/echo/post`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: client.cookie, Origin: BASE_URL }, body: bytes });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("Request body must be valid UTF-8");
    expect((await client.get("/api/profile/me")).json.echosCount).toBe(0);
  });

  it("user names and passwords on sign-up and login", async () => {
    const guest = new Client();
    await expect400(await guest.post("/api/auth/signup", raw(`{"userName":"ab@","password":"pass1234"}`)), `userName ${ILL}`);
    await expect400(await guest.post("/api/auth/signup", raw(`{"userName":"${uniqueName("tc")}","password":"pass@1234"}`)), `password ${ILL}`);
    await expect400(await guest.post("/api/auth/signup", raw(`{"userName":"${uniqueName("tc")}","password":"pass@1234"}`, "\\u0000")), `password ${ILL}`);
    await expect400(await guest.post("/api/auth/login", raw(`{"userName":"ab@","password":"pass1234"}`)), `userName ${ILL}`);
    await expect400(await guest.post("/api/auth/login", raw(`{"userName":"abc","password":"@@@@"}`)), `password ${ILL}`);
  });

  it("scroll names, descriptions and every feed rule value, on create and edit", async () => {
    const { client } = await signedUp("td");
    const create = (json: string, bad = LONE) => client.post("/api/scroll/create", raw(json, bad));
    await expect400(await create(`{"name":"n@","type":"feed"}`), `name ${ILL}`);
    await expect400(await create(`{"name":"n","description":"d@","type":"feed"}`), `description ${ILL}`);
    await expect400(await create(`{"name":"n","type":"feed","feedConfig":{"includedTags":["ok","t@"]}}`), `feedConfig.includedTags ${ILL}`);
    await expect400(await create(`{"name":"n","type":"feed","feedConfig":{"excludedTags":["@"]}}`), `feedConfig.excludedTags ${ILL}`);
    await expect400(await create(`{"name":"n","type":"feed","feedConfig":{"authors":["@"]}}`), `feedConfig.authors ${ILL}`);
    await expect400(await create(`{"name":"n","type":"feed","feedConfig":{"dateRange":{"startDate":"2026@"}}}`), `feedConfig.dateRange.startDate ${ILL}`);
    await expect400(await create(`{"name":"n@","type":"feed"}`, "\\u0007"), `name ${ILL}`);
    expect((await client.get("/api/scroll/all")).json.scrolls).toEqual([]);
    const scroll = (await client.post("/api/scroll/create", { name: "fine", type: "curation" })).json.scroll;
    await expect400(await client.request("PATCH", `/api/scroll/${scroll._id}`, raw(`{"name":"x@"}`)), `name ${ILL}`);
    await expect400(await client.post(`/api/scroll/${scroll._id}/add-echo`, raw(`{"echoId":"@"}`)), `echoId ${ILL}`);
    expect((await client.get(`/api/scroll/${scroll._id}`)).json.scroll.name).toBe("fine");
  });

  it("profile bio and email, report reasons", async () => {
    const { client } = await signedUp("te");
    await expect400(await client.request("PATCH", "/api/profile/me", raw(`{"bio":"hi @"}`)), `bio ${ILL}`);
    await expect400(await client.request("PATCH", "/api/profile/me", raw(`{"email":"a@@example.com"}`)), `email ${ILL}`);
    expect((await client.get("/api/profile/me")).json.bio).toBe("");
    const echo = (await client.post("/api/echo/post", { content: "report me" })).json.echo;
    const { client: other } = await signedUp("tf");
    await expect400(await other.post(`/api/echo/${echo._id}/report`, raw(`{"reason":"spam @"}`)), `reason ${ILL}`);
  });

  it("query strings and search: control characters and escapes that are not UTF-8", async () => {
    const { client } = await signedUp("tg");
    await expect400(await client.get("/api/search/users?q=a%00b"), `q ${ILL}`);
    await expect400(await client.get("/api/search/users?q=%ED%A0%80"), "q must be valid percent-encoded UTF-8");
    await expect400(await client.get("/api/echo/all?tag=%1B"), `tag ${ILL}`);
    await expect400(await client.get("/api/echo/all?user=%C2%85"), `user ${ILL}`);
    await expect400(await client.get("/api/echo/all?cursor=%FF"), "cursor must be valid percent-encoded UTF-8");
    await expect400(await client.get("/api/echo/tag/abc?orderBy=%00"), `orderBy ${ILL}`);
    await expect400(await client.get("/api/echo/tag/a%07b"), `tag ${ILL}`);
    await expect400(await client.get("/api/community/tags?limit=1%00"), `limit ${ILL}`);
    // well-formed non-ASCII still works
    expect((await client.get(`/api/search/users?q=${encodeURIComponent("ö😀")}`)).status).toBe(200);
    expect((await client.get(`/api/echo/tag/${encodeURIComponent("café")}`)).status).toBe(200);
  });
});

describe("limits count characters as a person sees them", () => {
  it("an echo of 1000 family emoji is accepted, 1001 refused; a pile of combining marks is bounded", async () => {
    const { client } = await signedUp("th");
    const ok = await client.post("/api/echo/post", { content: FAMILY.repeat(1000) });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.json.echo.content).toBe(FAMILY.repeat(1000));
    await expect400(await client.post("/api/echo/post", { content: FAMILY.repeat(1001) }), "content must be at most 1000 characters");
    expect((await client.post("/api/echo/post", { content: FLAG.repeat(1000) })).status).toBe(201);
    expect((await client.post("/api/echo/post", { content: "é".normalize("NFD").repeat(1000) })).status).toBe(201);
    // one "character" of 25 combining marks (26 units; 51 KB, under the body limit), 1000 times: within 1000 clusters but not within the storage bound
    await expect400(await client.post("/api/echo/post", { content: ("e" + "\u0301".repeat(25)).repeat(1000) }), "content must be at most 1000 characters");
  });

  it("scroll names and descriptions, bios, tags and passwords count emoji as one", async () => {
    const { client } = await signedUp("ti");
    expect((await client.post("/api/scroll/create", { name: "😀".repeat(50), description: FAMILY.repeat(200), type: "feed" })).status).toBe(201);
    await expect400(await client.post("/api/scroll/create", { name: "😀".repeat(51), type: "feed" }), "name must be at most 50 characters");
    await expect400(await client.post("/api/scroll/create", { name: "n", description: FAMILY.repeat(201), type: "feed" }), "description must be at most 200 characters");
    expect((await client.request("PATCH", "/api/profile/me", { bio: FLAG.repeat(300) })).status).toBe(200);
    await expect400(await client.request("PATCH", "/api/profile/me", { bio: FLAG.repeat(301) }), "bio must be at most 300 characters");
    // a tag of 30 letters outside the BMP (2 units each) is 30 characters
    const gothic = "𐌰".repeat(30);
    expect((await client.post("/api/echo/post", { content: "t", tags: [gothic] })).json.echo.tags).toEqual([{ _id: gothic, name: gothic }]);
    // a 2-emoji password is 2 characters, under the minimum of 4 (4 UTF-16 units)
    const guest = new Client();
    await expect400(await guest.post("/api/auth/signup", { userName: uniqueName("tj"), password: "😀😀" }), "Password must be at least 4 characters");
    expect((await guest.post("/api/auth/signup", { userName: uniqueName("tj"), password: "😀😀😀😀" })).status).toBe(201);
  });
});
