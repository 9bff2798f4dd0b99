// D1 read replication (docs/decisions/017-read-replicas.md) on the local runtime: every answer
// that read or wrote D1 hands the browser its bookmark (the `echo_d1b` cookie), the next request
// starts its session from it and so reads what the browser wrote, and a bookmark cookie that is
// not one is ignored, never a 500.
import { describe, expect, it } from "vitest";
import { Client, signedUp } from "./client";

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** The bookmark cookie a response set (its Set-Cookie line), or undefined. */
const bookmarkHeader = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith("echo_d1b="));

/** The bookmark inside a cookie pair `echo_d1b=…`: React Router stores it as base64 JSON. */
function bookmarkOf(pair: string): string {
  const value = decodeURIComponent(pair.slice("echo_d1b=".length).split(";")[0]!);
  return JSON.parse(Buffer.from(value, "base64").toString()) as string;
}

const sessionOnly = (client: Client) => client.cookie.split("; ").find((c) => c.startsWith("echo_session="))!;

describe("the D1 bookmark cookie", () => {
  it("comes with a write's answer and with a signed-in read: HttpOnly, SameSite=Lax, Path=/, a D1 bookmark", async () => {
    const client = new Client();
    const signup = await client.post("/api/auth/signup", { userName: `rr${Date.now().toString(36)}`, password: "pass1234" });
    expect(signup.status).toBe(201);
    const header = bookmarkHeader(signup);
    expect(header).toBeDefined();
    for (const flag of ["Path=/", "HttpOnly", "SameSite=Lax"]) expect(header).toContain(flag);
    expect(bookmarkOf(header!)).toMatch(BOOKMARK);

    const read = await new Client().request("GET", "/api/echo/all", undefined, { Cookie: sessionOnly(client) });
    expect(read.status).toBe(200);
    expect(bookmarkOf(bookmarkHeader(read)!)).toMatch(BOOKMARK);
  });

  it("after a write, the next read with that cookie sees the write, and the bookmark only moves forward", async () => {
    const { client } = await signedUp("rrw");
    const before = bookmarkOf(client.cookie.split("; ").find((c) => c.startsWith("echo_d1b="))!);
    const content = `replica ${Date.now()}`;
    const post = await client.post("/api/echo/post", { content });
    expect(post.status).toBe(201);
    const written = bookmarkHeader(post)!;
    expect(bookmarkOf(written) > before).toBe(true);

    // a fresh browser holding just the session and the write's bookmark
    const next = new Client();
    next.cookie = `${sessionOnly(client)}; ${written.split(";")[0]}`;
    const one = await next.get(`/api/echo/echo/${post.json.echo._id}`);
    expect(one.status).toBe(200);
    expect(one.json.echo.content).toBe(content);
    const mine = await next.get("/api/echo/all?limit=5");
    expect(mine.json.echos.map((e: { content: string }) => e.content)).toContain(content);
    // another vertical (people) starts from the same cookie
    const profile = await next.get(`/api/profile/user/${post.json.echo.author._id}/echos?limit=5`);
    expect(profile.status).toBe(200);
    expect(profile.json.echos.map((e: { content: string }) => e.content)).toContain(content);
    expect(bookmarkOf(next.cookie.split("; ").find((c) => c.startsWith("echo_d1b="))!) >= bookmarkOf(written)).toBe(true);
  });

  it("a malformed bookmark cookie is ignored: the page and the API answer, and a real bookmark replaces it", async () => {
    const { client } = await signedUp("rrm");
    const base64 = (text: string) => encodeURIComponent(Buffer.from(text).toString("base64"));
    const bad = [
      "garbage",
      "%",
      "%E0%A4%A",
      "A".repeat(4000),
      base64('"garbage"'),
      base64('"first-primary"'),
      base64('"\\ud800"'), // ill-formed Unicode once decoded
      encodeURIComponent(Buffer.from([0x22, 0xff, 0xfe, 0x22]).toString("base64")), // not UTF-8
      base64('"ffffffff-ffffffff-ffffffff-ffffffffffffffffffffffffffffffff0"'), // one digit too many
    ];
    for (const value of bad) {
      for (const path of ["/api/echo/all", "/"]) {
        const res = await new Client().request("GET", path, undefined, { Cookie: `${sessionOnly(client)}; echo_d1b=${value}` });
        expect(res.status, `${path} with echo_d1b=${value.slice(0, 40)}`).toBe(200);
        expect(bookmarkOf(bookmarkHeader(res)!)).toMatch(BOOKMARK);
      }
      const write = await new Client().request("POST", "/api/echo/post", { content: "with a bad bookmark" }, { Cookie: `${sessionOnly(client)}; echo_d1b=${value}` });
      expect(write.status, `POST with echo_d1b=${value.slice(0, 40)}`).toBe(201);
    }
    // a guest with only a bad bookmark: the sign-in page as always
    const guest = await new Client().request("GET", "/login", undefined, { Cookie: "echo_d1b=%; other=1" });
    expect(guest.status).toBe(200);
  });

  it("signed-out first visits work without a cookie; a public feed answer (shared caches) carries none", async () => {
    const { client } = await signedUp("rrg");
    const tag = `rrtag${Date.now().toString(36)}`;
    expect((await client.post("/api/echo/post", { content: `public #${tag}`, tags: [tag] })).status).toBe(201);

    const guest = new Client();
    const feed = await guest.get(`/tag/${tag}/feed.json`);
    expect(feed.status).toBe(200);
    expect(feed.json.items.map((i: { content_text?: string }) => i.content_text ?? "").join(" ")).toContain(`public #${tag}`);
    expect(bookmarkHeader(feed)).toBeUndefined();
    expect((await guest.get("/login")).status).toBe(200);
    expect(guest.cookie).toBe("");
    // the sign-up that follows starts the browser's bookmark
    const signup = await guest.post("/api/auth/signup", { userName: `rrg${Date.now().toString(36)}`, password: "pass1234" });
    expect(signup.status).toBe(201);
    expect(bookmarkOf(bookmarkHeader(signup)!)).toMatch(BOOKMARK);
  });
});
