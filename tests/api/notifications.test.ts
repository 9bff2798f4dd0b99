// Notifications over real HTTP (issue 18): each kind is made by its action in the same batch,
// grouped, never for your own actions, removed when the action is undone or its subject or actor
// is deleted; mark all as read, cursor paging, errors, and exactness under a like/follow storm.
import { describe, expect, it } from "vitest";
import { Client, d1Cost, expectErrorShape, signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Who = Awaited<ReturnType<typeof signedUp>>;

async function must(res: { status: number; json: Json; text: string }, status = 200): Promise<Json> {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  return res.json;
}

const page = async (who: Who, cursor?: string) =>
  must(await who.client.get(`/api/notifications${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`));

async function post(who: Who, content: string) {
  return (await must(await who.client.post("/api/echo/post", { content, tags: [] }), 201)).echo as Json;
}

/** Every group of `who`, through all pages. */
async function allGroups(who: Who): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | undefined;
  do {
    const body = await page(who, cursor);
    out.push(...body.notifications);
    cursor = body.pagination.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

const kinds = (groups: Json[]) => groups.map((g) => g.kind);

describe("notifications", () => {
  it("a guest gets 401 on the API and is sent to /login from the page", async () => {
    const guest = new Client();
    for (const res of [await guest.get("/api/notifications"), await guest.post("/api/notifications/read")]) {
      expect(res.status).toBe(401);
      expectErrorShape(res.json);
    }
    const pageRes = await guest.get("/notifications");
    expect(pageRes.status).toBe(302);
    expect(pageRes.headers.get("location")).toMatch(/^\/login/);
  });

  it("GET /api/notifications/unread: the bell's count, the session check's read only; 401 to a guest, 405 to a write", async () => {
    const [alice, bob] = await Promise.all([signedUp("nu"), signedUp("nv")]);
    const unread = async () => must(await alice.client.get("/api/notifications/unread"));
    expect(await unread()).toEqual({ unreadCount: 0 });
    const echo = await post(alice, "count me");
    await must(await bob.client.post(`/api/echo/like/${echo._id}`));
    await post(bob, `hello @${alice.user.userName}`);
    const res = await alice.client.get("/api/notifications/unread");
    expect(res.json).toEqual({ unreadCount: 2 });
    // the session row and its user's: nothing but the session check
    expect(d1Cost(res)).toEqual({ roundTrips: 1, rows: 2 });
    await must(await alice.client.post("/api/notifications/read"));
    expect(await unread()).toEqual({ unreadCount: 0 });
    const guest = await new Client().get("/api/notifications/unread");
    expect(guest.status).toBe(401);
    expectErrorShape(guest.json);
    expect((await alice.client.post("/api/notifications/unread")).status).toBe(405);
  });

  it("likes group per echo (newest actor first), never for your own like, and go with the unlike", async () => {
    const [alice, bob, carol, dave] = await Promise.all([signedUp("na"), signedUp("nb"), signedUp("nc"), signedUp("nd")]);
    const echo = await post(alice, "a ".repeat(40) + "tail");
    await must(await alice.client.post(`/api/echo/like/${echo._id}`)); // own like: nothing
    expect((await page(alice)).notifications).toEqual([]);
    expect((await page(alice)).unreadCount).toBe(0);

    for (const who of [bob, carol, dave]) await must(await who.client.post(`/api/echo/like/${echo._id}`));
    const body = await page(alice);
    expect(body.unreadCount).toBe(1);
    expect(body.notifications).toHaveLength(1);
    expect(body.notifications[0]).toMatchObject({
      _id: `like:${echo._id}`,
      kind: "like",
      actor: { _id: dave.user._id, userName: dave.user.userName },
      actorCount: 3,
      echo: { _id: echo._id, excerpt: `${"a ".repeat(30).trimEnd()}…` },
      scroll: null,
      unread: true,
    });
    // liking again changes nothing; the newest actor's unlike hands the group to the one before
    await must(await dave.client.post(`/api/echo/like/${echo._id}`));
    await must(await dave.client.delete(`/api/echo/like/${echo._id}`));
    expect((await page(alice)).notifications[0]).toMatchObject({ actor: { _id: carol.user._id }, actorCount: 2 });
    await must(await carol.client.delete(`/api/echo/like/${echo._id}`));
    await must(await bob.client.delete(`/api/echo/like/${echo._id}`));
    const after = await page(alice);
    expect(after.notifications).toEqual([]);
    expect(after.unreadCount).toBe(0);
  });

  it("user follows notify the followee, grouped by day, and go with the unfollow", async () => {
    const [alice, bob, carol] = await Promise.all([signedUp("na"), signedUp("nb"), signedUp("nc")]);
    await must(await bob.client.post(`/api/profile/user/${alice.user._id}/follow`));
    await must(await carol.client.post(`/api/profile/user/${alice.user._id}/follow`));
    const [group] = (await page(alice)).notifications;
    expect(group).toMatchObject({ kind: "follow", actor: { _id: carol.user._id }, actorCount: 2, echo: null, scroll: null, unread: true });
    // following yourself is refused, and so notifies nobody
    expect((await alice.client.post(`/api/profile/user/${alice.user._id}/follow`)).status).toBe(400);
    await must(await carol.client.delete(`/api/profile/user/${alice.user._id}/follow`));
    expect((await page(alice)).notifications[0]).toMatchObject({ actor: { _id: bob.user._id }, actorCount: 1 });
    await must(await bob.client.delete(`/api/profile/user/${alice.user._id}/follow`));
    expect(await page(alice)).toMatchObject({ notifications: [], unreadCount: 0 });
  });

  it("scroll follows notify the creator (not for your own scroll), go with the unfollow and with the scroll", async () => {
    const [alice, bob] = await Promise.all([signedUp("na"), signedUp("nb")]);
    const scroll = (await must(await alice.client.post("/api/scroll/create", { name: "My picks", type: "curation" }), 201)).scroll;
    // following your own scroll is refused, and so notifies nobody
    expect((await alice.client.post(`/api/scroll/${scroll._id}/follow`)).status).toBe(400);
    expect((await page(alice)).notifications).toEqual([]);
    await must(await bob.client.post(`/api/scroll/${scroll._id}/follow`));
    expect((await page(alice)).notifications).toMatchObject([
      { _id: `scroll_follow:${scroll._id}`, kind: "scroll_follow", actor: { _id: bob.user._id }, actorCount: 1, scroll: { _id: scroll._id, name: "My picks" }, echo: null },
    ]);
    await must(await bob.client.delete(`/api/scroll/${scroll._id}/follow`));
    expect((await page(alice)).notifications).toEqual([]);
    await must(await bob.client.post(`/api/scroll/${scroll._id}/follow`));
    await must(await alice.client.delete(`/api/scroll/${scroll._id}`));
    expect(await page(alice)).toMatchObject({ notifications: [], unreadCount: 0 });
  });

  it("mentions notify existing users only (any case), never the author, and go with the echo", async () => {
    const [alice, bob, carol] = await Promise.all([signedUp("na"), signedUp("nb"), signedUp("nc")]);
    const echo = await post(bob, `hi @${alice.user.userName.toUpperCase()}, @${alice.user.userName} and @${bob.user.userName} and @nobody_${Date.now()}`);
    expect((await page(bob)).notifications).toEqual([]);
    const body = await page(alice);
    expect(body.unreadCount).toBe(1);
    expect(body.notifications).toMatchObject([{ kind: "mention", actor: { _id: bob.user._id }, actorCount: 1, echo: { _id: echo._id } }]);
    // a like of the same echo by someone else is its own group (bob's echo: bob is told)
    await must(await carol.client.post(`/api/echo/like/${echo._id}`));
    expect(kinds((await page(bob)).notifications)).toEqual(["like"]);
    await must(await bob.client.delete(`/api/echo/delete/${echo._id}`));
    expect(await page(alice)).toMatchObject({ notifications: [], unreadCount: 0 });
    expect(await page(bob)).toMatchObject({ notifications: [], unreadCount: 0 });
  });

  it("an actor's account deletion takes their notifications with it", async () => {
    const [alice, bob, carol] = await Promise.all([signedUp("na"), signedUp("nb"), signedUp("nc")]);
    const echo = await post(alice, "delete me later");
    await must(await bob.client.post(`/api/echo/like/${echo._id}`));
    await must(await carol.client.post(`/api/echo/like/${echo._id}`));
    await must(await bob.client.post(`/api/profile/user/${alice.user._id}/follow`));
    await post(bob, `hey @${alice.user.userName}`);
    expect((await page(alice)).unreadCount).toBe(3);
    await must(await bob.client.request("DELETE", "/api/profile/me", { password: "pass1234" }));
    // what the account did leaves through the change stream (decision 032)
    for (let deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      if ((await page(alice)).unreadCount === 1) break;
    }
    const body = await page(alice);
    expect(body.notifications).toMatchObject([{ kind: "like", actor: { _id: carol.user._id }, actorCount: 1 }]);
    expect(body.unreadCount).toBe(1);
  });

  it("mark all as read: the count goes to 0, groups read; a new action makes its group unread again", async () => {
    const [alice, bob, carol] = await Promise.all([signedUp("na"), signedUp("nb"), signedUp("nc")]);
    const [one, two] = [await post(alice, "one"), await post(alice, "two")];
    await must(await bob.client.post(`/api/echo/like/${one._id}`));
    await must(await bob.client.post(`/api/echo/like/${two._id}`));
    expect((await page(alice)).unreadCount).toBe(2);
    // a cross-site write is refused (CSRF) and changes nothing
    expect((await alice.client.post("/api/notifications/read", {}, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await page(alice)).unreadCount).toBe(2);
    expect(await must(await alice.client.post("/api/notifications/read"))).toEqual({ unreadCount: 0 });
    const read = await page(alice);
    expect(read.unreadCount).toBe(0);
    expect(read.notifications.map((n: Json) => n.unread)).toEqual([false, false]);
    await must(await carol.client.post(`/api/echo/like/${one._id}`));
    const after = await page(alice);
    expect(after.unreadCount).toBe(1);
    expect(after.notifications).toMatchObject([
      { echo: { _id: one._id }, actor: { _id: carol.user._id }, actorCount: 2, unread: true },
      { echo: { _id: two._id }, unread: false },
    ]);
    // undoing the new like makes the group read again, and the count follows
    await must(await carol.client.delete(`/api/echo/like/${one._id}`));
    expect((await page(alice)).unreadCount).toBe(0);
    expect((await alice.client.get("/api/notifications/read")).status).toBe(405);
  });

  it("pages by cursor, newest first, with no gaps or repeats; a bad cursor is a clear 400", { timeout: 60_000 }, async () => {
    const [alice, bob] = await Promise.all([signedUp("na"), signedUp("nb")]);
    const echos: Json[] = [];
    for (let i = 0; i < 23; i++) echos.push(await post(alice, `paged ${i}`));
    for (const echo of echos) await must(await bob.client.post(`/api/echo/like/${echo._id}`));
    const first = await page(alice);
    expect(first.notifications).toHaveLength(20);
    expect(first.pagination).toMatchObject({ limit: 20, hasMore: true });
    const second = await page(alice, first.pagination.nextCursor);
    expect(second.pagination).toEqual({ limit: 20, hasMore: false, nextCursor: null });
    const ids = [...first.notifications, ...second.notifications].map((n: Json) => n.echo._id);
    expect(ids).toEqual(echos.map((e) => e._id).reverse());
    expect(first.unreadCount).toBe(23);

    const wrongShape = btoa(JSON.stringify({ t: "x", k: "like", g: "1" }));
    const unknownKind = btoa(JSON.stringify({ t: 1, k: "poke", g: "1" }));
    for (const cursor of ["%%%", "not-a-cursor", wrongShape, unknownKind, "A".repeat(300)]) {
      const res = await alice.client.get(`/api/notifications?cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      expect(res.json).toEqual({ error: expect.any(String), message: expect.any(String) });
    }
    expect((await alice.client.get(`/api/notifications?cursor=${wrongShape}`)).json.error).toBe("cursor is invalid");
  });

  it("the bell in the shell says the unread count in its accessible name", async () => {
    const [alice, bob] = await Promise.all([signedUp("na"), signedUp("nb")]);
    const before = (await alice.client.get("/")).text;
    expect(before).toContain('aria-label="Notifications"');
    await must(await bob.client.post(`/api/profile/user/${alice.user._id}/follow`));
    expect((await alice.client.get("/")).text).toContain('aria-label="Notifications, 1 unread"');
  });

  it("a storm of concurrent likes, unlikes, follows and unfollows leaves notifications exact", { timeout: 120_000 }, async () => {
    const author = await signedUp("ns");
    const users: Who[] = [];
    for (let i = 0; i < 20; i += 10) users.push(...(await Promise.all(Array.from({ length: 10 }, () => signedUp("nt")))));
    const echos = [await post(author, "storm one"), await post(author, "storm two")];
    let state = Number(process.env.STORM_SEED ?? Date.now() % 1_000_000);
    const coin = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648) < 0.5;
    for (let round = 0; round < 3; round++) {
      const calls: Promise<unknown>[] = [];
      for (const who of users) {
        for (const echo of echos) {
          const path = `/api/echo/like/${echo._id}`;
          calls.push(coin() ? who.client.post(path) : who.client.delete(path));
        }
        const follow = `/api/profile/user/${author.user._id}/follow`;
        calls.push(coin() ? who.client.post(follow) : who.client.delete(follow));
      }
      for (const res of (await Promise.all(calls)) as { status: number }[]) expect(res.status).toBe(200);
    }
    const groups = await allGroups(author);
    for (const echo of echos) {
      const likes = (await must(await author.client.get(`/api/echo/echo/${echo._id}`))).echo.likes;
      const group = groups.find((g) => g._id === `like:${echo._id}`);
      expect(group?.actorCount ?? 0, echo._id).toBe(likes);
    }
    const followers = (await must(await author.client.get(`/api/profile/user/${author.user._id}`))).followersCount;
    const follows = groups.filter((g) => g.kind === "follow").reduce((sum, g) => sum + g.actorCount, 0);
    expect(follows).toBe(followers);
    // never marked read: every group is unread, and the counter says exactly that
    expect((await page(author)).unreadCount).toBe(groups.length);
    expect(groups.every((g) => g.unread)).toBe(true);

    // the storm's echos go (their like groups with them): the store is shared, and up to 20 likes
    // on today's echos would outrank what the community e2e ranks as Most Liked
    for (const echo of echos) await must(await author.client.delete(`/api/echo/delete/${echo._id}`));
    expect((await allGroups(author)).filter((g) => g.kind === "like")).toEqual([]);
  });
});
