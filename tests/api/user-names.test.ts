// One rule for user names (issue 28; modules/shared/user-names.ts): sign-up refuses what a URL
// or a mention cannot carry (`.`, `..`, a trailing dot or hyphen, `..` inside), and a name with a
// dot inside works everywhere a name is read: its by-name page, its web feed, mentions (the link
// and the notification) and search.
import { describe, expect, it } from "vitest";
import { BASE_URL, Client, expectErrorShape, signedUp, uniqueName } from "./client";

const SHAPE = 'Username must start and end with a letter, number or "_", and may not have two dots in a row';

describe("sign-up refuses names the rule does not allow, and creates nothing", () => {
  it.each([".", "..", "...", "a.", "a..", "a-", ".a", "-a", "a..b"])("%s → 400", async (bad) => {
    // unique per run, with the bad part kept where it matters (the ends, the double dot)
    const stem = uniqueName("n").slice(0, 20);
    const userName = bad.length <= 3 && !/[a-z]/.test(bad) ? bad : bad.replace("a", stem);
    const client = new Client();
    const res = await client.post("/api/auth/signup", { userName, password: "pass1234" });
    expect(res.status, `${userName}: ${res.text}`).toBe(400);
    expectErrorShape(res.json);
    expect(res.json.error).toBe(SHAPE);
    // nothing was made: the name cannot log in, and no cookie was set
    expect(client.cookie).toBe("");
    expect((await new Client().post("/api/auth/login", { userName, password: "pass1234" })).status).toBe(401);
  });

  it("the sign-up page's form post refuses them too, signing no one in", async () => {
    const res = await fetch(`${BASE_URL}/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE_URL },
      body: "userName=..&password=pass1234",
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    expect(res.headers.getSetCookie().filter((c) => c.includes("echo_session="))).toEqual([]);
  });
});

describe("a name with dots and hyphens inside works wherever a name is read", () => {
  it("its by-name page, its web feed, a mention's link and notification, and search", async () => {
    const stem = uniqueName("d").slice(0, 22);
    const userName = `${stem}.x-y`;
    const dotted = new Client();
    const made = await dotted.post("/api/auth/signup", { userName, password: "pass1234" });
    expect(made.status, made.text).toBe(201);
    const { client: author, user: authorUser } = await signedUp("dm");

    // the by-name page (a mention's link) finds them
    const byName = await author.get(`/user/by-name/${userName}`);
    expect(byName.status).toBe(302);
    expect(byName.headers.get("location")).toBe(`/user/${made.json._id}`);
    const page = await author.get(`/user/${made.json._id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(userName);

    // their web feed
    await dotted.post("/api/echo/post", { content: "from a dotted name" });
    const feed = await fetch(`${BASE_URL}/user/${userName}/feed.json`);
    expect(feed.status).toBe(200);
    expect(((await feed.json()) as { items: { content_html: string }[] }).items.map((i) => i.content_html).join()).toContain("from a dotted name");

    // a mention ending a sentence, and one trailing off, both name them: one notification
    const posted = await author.post("/api/echo/post", { content: `thanks @${userName}. and @${userName}...` });
    expect(posted.status).toBe(201);
    const notes = await dotted.get("/api/notifications");
    expect(notes.json.notifications).toMatchObject([{ kind: "mention", actor: { _id: authorUser._id }, echo: { _id: posted.json.echo._id } }]);
    // the echo page links the name, not the punctuation
    const echoPage = await author.get(`/echo/${posted.json.echo._id}`);
    expect(echoPage.text).toContain(`href="/user/by-name/${userName}"`);
    expect(echoPage.text).not.toContain(`href="/user/by-name/${userName}.`);

    // search by author, written as a mention
    const found = await author.get(`/api/search/echos?q=${encodeURIComponent(`@${userName}.`)}`);
    expect(found.status).toBe(200);
    expect(found.json.echos.map((e: { content: string }) => e.content)).toEqual(["from a dotted name"]);
  });

  it("`@a..` mentions `a`: the prefix before an ellipsis, not a name that cannot exist", async () => {
    const { client: a, user } = await signedUp("e");
    const { client: author } = await signedUp("ea");
    await author.post("/api/echo/post", { content: `well @${user.userName}..` });
    const notes = await a.get("/api/notifications");
    expect(notes.json.notifications.map((n: { kind: string }) => n.kind)).toEqual(["mention"]);
  });
});
