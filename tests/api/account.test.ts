// Change password and delete account (issue 12), over real HTTP. Deleting an account removes
// everything the user made and did; every counter others see must still equal what it counts.
import { describe, expect, it } from "vitest";
import { Client, d1Cost, expectErrorShape, signedUp, uniqueName } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Res = Awaited<ReturnType<Client["request"]>>;

function expectOk(res: Res, status = 200) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
}

const login = (userName: string, password: string) => new Client().post("/api/auth/login", { userName, password });

describe("POST /api/auth/password", () => {
  it("changes the password and signs out every other session; the current one stays", async () => {
    const { client, user } = await signedUp("pw");
    const other = new Client();
    expectOk(await other.post("/api/auth/login", { userName: user.userName, password: "pass1234" }));
    const res = await client.post("/api/auth/password", { currentPassword: "pass1234", newPassword: "new-pass-5678" });
    expectOk(res);
    expect(res.json).toEqual({ ok: true });
    expectOk(await client.get("/api/auth/me"));
    expect((await other.get("/api/auth/me")).status).toBe(401);
    expect((await login(user.userName, "pass1234")).status).toBe(401);
    expectOk(await login(user.userName, "new-pass-5678"));
  });

  it.each([
    [{ currentPassword: "wrong-one", newPassword: "new-pass" }, 400, "Current password is incorrect"],
    [{ newPassword: "new-pass" }, 400, "Current password is required"],
    [{ currentPassword: "pass1234" }, 400, "Password is required"],
    [{ currentPassword: "pass1234", newPassword: "abc" }, 400, "Password must be at least 4 characters"],
    // the same password again changes nothing and would sign the other devices out (issue 29)
    [{ currentPassword: "pass1234", newPassword: "pass1234" }, 400, "Password must be different from the current password"],
    [{ currentPassword: "pass1234", newPassword: 5 }, 400, "Password is required"],
    [[], 400, "Request body must be a JSON object"],
  ])("refuses %j with %i '%s' and changes nothing", async (body, status, message) => {
    const { client, user } = await signedUp("pwbad");
    const other = new Client();
    expectOk(await other.post("/api/auth/login", { userName: user.userName, password: "pass1234" }));
    const res = await client.post("/api/auth/password", body);
    expect(res.status).toBe(status);
    expectErrorShape(res.json);
    expect(res.json.error).toBe(message);
    expectOk(await other.get("/api/auth/me"));
    expectOk(await login(user.userName, "pass1234"));
  });

  it("needs a live session: a guest or a stale cookie gets 401", async () => {
    expect((await new Client().post("/api/auth/password", { currentPassword: "pass1234", newPassword: "x1234" })).status).toBe(401);
  });
});

describe("the password check carries the session check (two round trips)", () => {
  it("a signed-out session's attempts get 401, change nothing and count no attempt against the owner", async () => {
    const { client, user } = await signedUp("pwrev");
    const stolen = new Client();
    expectOk(await stolen.post("/api/auth/login", { userName: user.userName, password: "pass1234" }));
    const kept = stolen.cookie;
    expectOk(await stolen.post("/api/auth/logout"));
    stolen.cookie = kept; // the signed-out session's cookie, replayed
    // more tries than the owner's password checks allow in a minute (10)
    for (let i = 0; i < 12; i++) {
      const tries = [
        await stolen.post("/api/auth/password", { currentPassword: "pass1234", newPassword: `taken-${i}-pw` }),
        await stolen.request("DELETE", "/api/profile/me", { password: "pass1234" }),
      ];
      for (const res of tries) expect(res.status, res.text.slice(0, 200)).toBe(401);
    }
    expectOk(await login(user.userName, "pass1234"));
    // the owner's own checks are not used up, and each costs two round trips
    const changed = await client.post("/api/auth/password", { currentPassword: "pass1234", newPassword: "owner-pass-1" });
    expectOk(changed);
    expect(d1Cost(changed, "a password change").roundTrips).toBeLessThanOrEqual(2);
    expectOk(await login(user.userName, "owner-pass-1"));
  });
});

describe("DELETE /api/profile/me", () => {
  it("a wrong or missing password is a clear 400 and deletes nothing", async () => {
    const { client, user } = await signedUp("delbad");
    expectOk(await client.post("/api/echo/post", { content: "still here", tags: [] }), 201);
    for (const [body, message] of [
      [{ password: "nope-nope" }, "Password is incorrect"],
      [{}, "Password is required"],
    ] as const) {
      const res = await client.request("DELETE", "/api/profile/me", body);
      expect(res.status).toBe(400);
      expect(res.json.error).toBe(message);
    }
    const me = await client.get("/api/profile/me");
    expectOk(me);
    expect(me.json.echosCount).toBe(1);
    expectOk(await login(user.userName, "pass1234"));
  });

  it("removes the account and all it did; every counter others see stays exact, under concurrent activity", { timeout: 120_000 }, async () => {
    const victim = await signedUp("vic");
    const others = await Promise.all([signedUp("oa"), signedUp("ob"), signedUp("oc")]);
    const [a, b, c] = others;
    const tag = uniqueName("t").toLowerCase();
    const post = async (who: { client: Client }, content: string, tags: string[] = [tag]) => {
      const res = await who.client.post("/api/echo/post", { content, tags });
      expectOk(res, 201);
      return res.json.echo._id as string;
    };
    const victimEchos = [await post(victim, "v1"), await post(victim, "v2"), await post(victim, "v3", [])];
    // the victim mentions A: that notification goes with the account too
    await post(victim, `hi @${a.user.userName}`, []);
    const aEchos = [await post(a, "a1"), await post(a, "a2")];
    const bEcho = await post(b, "b1");
    const scroll = async (who: { client: Client }, body: Json) => {
      const res = await who.client.post("/api/scroll/create", body);
      expectOk(res, 201);
      return res.json.scroll._id as string;
    };
    const victimCuration = await scroll(victim, { name: "v curation", type: "curation" });
    const victimFeed = await scroll(victim, { name: "v feed", type: "feed" });
    await scroll(victim, { name: "v private", type: "curation", isPrivate: true });
    const aCuration = await scroll(a, { name: "a curation", type: "curation" });
    // a feed of A's that names the victim as an author: it must keep working afterwards
    const aFeed = await scroll(a, { name: "a feed", type: "feed", feedConfig: { authors: [victim.user._id] } });

    const setup: Promise<Res>[] = [
      ...[...aEchos, bEcho].map((id) => victim.client.post(`/api/echo/like/${id}`)),
      ...others.flatMap((o) => victimEchos.map((id) => o.client.post(`/api/echo/like/${id}`))),
      b.client.post(`/api/echo/like/${aEchos[0]}`),
      victim.client.post(`/api/profile/user/${a.user._id}/follow`),
      victim.client.post(`/api/profile/user/${b.user._id}/follow`),
      a.client.post(`/api/profile/user/${victim.user._id}/follow`),
      c.client.post(`/api/profile/user/${victim.user._id}/follow`),
      c.client.post(`/api/profile/user/${a.user._id}/follow`),
      a.client.post(`/api/scroll/${victimCuration}/follow`),
      b.client.post(`/api/scroll/${victimCuration}/follow`),
      b.client.post(`/api/scroll/${victimFeed}/follow`),
      victim.client.post(`/api/scroll/${aCuration}/follow`),
      c.client.post(`/api/scroll/${aCuration}/follow`),
      victim.client.post(`/api/scroll/${victimCuration}/add-echo`, { echoId: aEchos[0] }),
      a.client.post(`/api/scroll/${aCuration}/add-echo`, { echoId: victimEchos[0] }),
      a.client.post(`/api/scroll/${aCuration}/add-echo`, { echoId: aEchos[1] }),
      victim.client.post(`/api/echo/${aEchos[0]}/share`),
      a.client.post(`/api/echo/${aEchos[0]}/share`),
      a.client.post(`/api/echo/${victimEchos[0]}/share`),
    ];
    for (const res of await Promise.all(setup)) expect(res.status, res.text.slice(0, 200)).toBeLessThan(300);
    expect((await a.client.get(`/api/echo/echo/${aEchos[0]}`)).json.echo).toMatchObject({ likes: 2, shares: 2 });

    // others keep acting on the victim's things while the account goes
    const racing = [
      ...others.map((o) => o.client.delete(`/api/echo/like/${victimEchos[1]}`)),
      b.client.post(`/api/profile/user/${victim.user._id}/follow`),
      c.client.post(`/api/scroll/${victimFeed}/follow`),
      b.client.post(`/api/scroll/${aCuration}/add-echo`, { echoId: victimEchos[1] }),
      a.client.post(`/api/scroll/${aCuration}/add-echo`, { echoId: victimEchos[2] }),
    ];
    const deleted = await victim.client.request("DELETE", "/api/profile/me", { password: "pass1234" });
    const raced = await Promise.all(racing);
    expectOk(deleted);
    expect(deleted.json).toEqual({ ok: true });
    expect(deleted.headers.get("set-cookie")).toMatch(/^echo_session=;.*Max-Age=0/);
    // bounded whatever the account holds (decision 032): the password check (the session check
    // rides in it), the marking batch; the rest leaves through the change stream
    const cost = d1Cost(deleted, "the deletion");
    expect(cost.roundTrips).toBeLessThanOrEqual(2);
    expect(cost.rows).toBeLessThanOrEqual(200);
    for (const res of raced) expect([200, 201, 403, 404], res.text.slice(0, 200)).toContain(res.status);

    // the victim is gone at once: session, login, profile; its echos and scrolls once the change
    // stream has removed them (decision 032: the request only marks the account)
    expect((await victim.client.get("/api/auth/me")).status).toBe(401);
    expect((await login(victim.user.userName, "pass1234")).status).toBe(401);
    expect((await a.client.get(`/api/profile/user/${victim.user._id}`)).status).toBe(404);
    const paths = [...victimEchos.map((id) => `/api/echo/echo/${id}`), ...[victimCuration, victimFeed].map((id) => `/api/scroll/${id}`)];
    for (let deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      if ((await Promise.all(paths.map((path) => a.client.get(path)))).every((res) => res.status === 404)) break;
    }
    for (const path of paths) expect((await a.client.get(path)).status, path).toBe(404);
    // the step that removed them ends by deleting the account's row (what came in between with it)
    await new Promise((r) => setTimeout(r, 1_000));

    // counters against the rows they count (lists), and against what is left
    const echoA0 = (await a.client.get(`/api/echo/echo/${aEchos[0]}`)).json.echo;
    expect(echoA0).toMatchObject({ likes: 1, shares: 1 });
    expect((await a.client.get(`/api/echo/echo/${bEcho}`)).json.echo.likes).toBe(0);
    for (const who of others) {
      const profile = (await who.client.get(`/api/profile/user/${who.user._id}`)).json;
      const followers = (await who.client.get(`/api/profile/user/${who.user._id}/followers?limit=100`)).json;
      const following = (await who.client.get(`/api/profile/user/${who.user._id}/following?limit=100`)).json;
      expect(profile.followersCount, who.user.userName).toBe(followers.followers.length);
      expect(profile.followersCount).toBe(followers.pagination.total);
      expect(profile.followingCount, who.user.userName).toBe(following.following.length);
      expect(profile.followingCount).toBe(following.pagination.total);
      for (const list of [followers.followers, following.following]) {
        expect((list as Json[]).some((u) => u._id === victim.user._id)).toBe(false);
      }
    }
    expect((await a.client.get(`/api/profile/user/${a.user._id}`)).json).toMatchObject({ followersCount: 1, followingCount: 0 });
    expect((await a.client.get(`/api/profile/user/${c.user._id}`)).json).toMatchObject({ followersCount: 0, followingCount: 1 });

    const curation = (await a.client.get(`/api/scroll/${aCuration}`)).json.scroll;
    const items = (await a.client.get(`/api/scroll/${aCuration}/echos?limit=100`)).json;
    expect(curation.echosCount).toBe(items.echos.length);
    expect(curation.echosCount).toBe(items.pagination.total);
    expect((items.echos as Json[]).map((e) => e._id)).toEqual([aEchos[1]]);
    expect(curation.followersCount).toBe(1); // C; the victim's follow went with the account

    const tagged = (await a.client.get(`/api/echo/tag/${tag}?limit=100`)).json;
    expect((tagged.echos as Json[]).map((e) => e._id).sort()).toEqual([...aEchos, bEcho].sort());
    expect(tagged.pagination.total).toBe(3);

    // notifications (issue 18): nothing the victim did or owned is left in anyone's, each group
    // counts exactly what is left, and the unread counters agree (nobody marked anything read)
    for (const who of others) {
      const body = (await who.client.get("/api/notifications")).json;
      const groups = body.notifications as Json[];
      expect(groups.some((g) => g.actor._id === victim.user._id), who.user.userName).toBe(false);
      expect(groups.some((g) => victimEchos.includes(g.echo?._id) || [victimCuration, victimFeed].includes(g.scroll?._id))).toBe(false);
      for (const g of groups.filter((x) => x.kind === "like")) {
        expect(g.actorCount).toBe((await who.client.get(`/api/echo/echo/${g.echo._id}`)).json.echo.likes);
      }
      const followers = (await who.client.get(`/api/profile/user/${who.user._id}`)).json.followersCount;
      expect(groups.filter((g) => g.kind === "follow").reduce((n, g) => n + g.actorCount, 0)).toBe(followers);
      expect(body.unreadCount, who.user.userName).toBe(groups.length);
    }
    // A's: B's like of a1 (the victim's likes of a1 and a2 went), C's follow, C's follow of A's curation
    const aGroups = (await a.client.get("/api/notifications")).json.notifications as Json[];
    const byKind = Object.fromEntries(aGroups.map((g) => [g.kind, g]));
    expect(aGroups).toHaveLength(3);
    expect(byKind.like).toMatchObject({ echo: { _id: aEchos[0] }, actor: { _id: b.user._id }, actorCount: 1 });
    expect(byKind.follow).toMatchObject({ actor: { _id: c.user._id }, actorCount: 1 });
    expect(byKind.scroll_follow).toMatchObject({ scroll: { _id: aCuration }, actor: { _id: c.user._id }, actorCount: 1 });

    for (const who of others) {
      const mine = (await who.client.get("/api/scroll/all")).json.scrolls as Json[];
      expect(mine.some((s) => s._id === victimCuration || s._id === victimFeed), who.user.userName).toBe(false);
    }
    for (const type of ["curation", "feed"]) {
      const list = await a.client.get(`/api/community/scrolls/public/${type}?limit=100`);
      expectOk(list);
      expect((list.json as Json[]).some((s) => s.creator?._id === victim.user._id)).toBe(false);
    }
    const popular = await a.client.get("/api/community/echos/popular?limit=100");
    expectOk(popular);
    expect((popular.json as Json[]).some((e) => victimEchos.includes(e._id))).toBe(false);
    // A's feed that named the victim still answers
    expectOk(await a.client.get(`/api/scroll/${aFeed}`));
    expectOk(await a.client.get(`/api/scroll/${aFeed}/echos`));
  });
});
