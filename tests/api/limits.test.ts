// Per-account limits over real HTTP (issue 28 item 5; the table is in docs/security.md, the
// values in modules/shared/rate-limit.server.ts WRITE_LIMITS): each test drives one fresh account
// past a limit and checks the refusal — 429, Retry-After, the API's error shape — and that the
// refused call wrote nothing. Windows are fixed, so a loop may cross an edge: each tries up to
// 2 × limit + 1 calls and stops at the first 429. The API server is shared by every test file
// running in parallel: the accounts here are fresh, so no other file ever meets these limits.
import { describe, expect, it } from "vitest";
import { Client, expectErrorShape, signedUp } from "./client";
import { handshake } from "./live-client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Res = Awaited<ReturnType<Client["request"]>>;

// modules/shared/rate-limit.server.ts WRITE_LIMITS
const LIMITS = { follow: 200, curate: 600, share: 300, notificationsRead: 120, preview: 300, export: 10, liveHandshake: 60 };

/** Call until refused (at most 2 × limit + 1 times); the calls that passed and the refusal. */
async function untilRefused(limit: number, call: (i: number) => Promise<Res>): Promise<{ passed: number; refusal: Res }> {
  for (let i = 0; i < 2 * limit + 1; i++) {
    const res = await call(i);
    if (res.status === 429) return { passed: i, refusal: res };
    expect(res.status, res.text.slice(0, 200)).toBeLessThan(300);
  }
  throw new Error(`no 429 after ${2 * limit + 1} calls`);
}

function expectRefusal({ passed, refusal }: { passed: number; refusal: Res }, limit: number) {
  expect(passed).toBeGreaterThanOrEqual(limit);
  expect(refusal.status).toBe(429);
  expect(Number(refusal.headers.get("retry-after"))).toBeGreaterThan(0);
  expectErrorShape(refusal.json);
}

async function post(client: Client, content: string): Promise<string> {
  const res = await client.post("/api/echo/post", { content, tags: [] });
  expect(res.status).toBe(201);
  return res.json.echo._id;
}

const profile = async (client: Client, userId: string): Promise<Json> => (await client.get(`/api/profile/user/${userId}`)).json;

describe("per-account limits (429 + Retry-After, nothing written)", { timeout: 180_000 }, () => {
  it(`following and unfollowing: ${LIMITS.follow} calls per 10 minutes, users and scrolls together`, async () => {
    const [me, bob, cat] = await Promise.all([signedUp("lf"), signedUp("lfb"), signedUp("lfc")]);
    await post(cat.client, "cat's echo");
    const scrollId = (await cat.client.post("/api/scroll/create", { name: "cat's", type: "curation" })).json.scroll._id;
    const result = await untilRefused(LIMITS.follow, (i) =>
      i % 2 === 0 ? me.client.post(`/api/profile/user/${bob.user._id}/follow`) : me.client.delete(`/api/profile/user/${bob.user._id}/follow`),
    );
    expectRefusal(result, LIMITS.follow);
    // the refused call changed nothing: the state is the last passed call's
    const followsBob = result.passed % 2 === 1;
    expect((await profile(me.client, bob.user._id)).isFollowing).toBe(followsBob);
    expect((await profile(bob.client, bob.user._id)).followersCount).toBe(followsBob ? 1 : 0);
    // a follow of someone else (and of a scroll: the same limit) is refused too and writes nothing
    const refusedUser = await me.client.post(`/api/profile/user/${cat.user._id}/follow`);
    expect(refusedUser.status).toBe(429);
    expectErrorShape(refusedUser.json);
    const refusedScroll = await me.client.post(`/api/scroll/${scrollId}/follow`);
    expect(refusedScroll.status).toBe(429);
    expect(await profile(cat.client, cat.user._id)).toMatchObject({ followersCount: 0 });
    expect((await profile(me.client, me.user._id)).followingCount).toBe(followsBob ? 1 : 0);
    const timeline = await me.client.get("/api/echo/following?limit=100");
    expect((timeline.json.echos as Json[]).some((e) => e.author._id === cat.user._id)).toBe(false);
    expect((await cat.client.get(`/api/scroll/${scrollId}`)).json.scroll.followersCount).toBe(0);
    const notes = await cat.client.get("/api/notifications");
    expect(notes.json.unreadCount).toBe(0);
  });

  it(`adding and removing curation echos: ${LIMITS.curate} calls per 10 minutes`, async () => {
    const me = await signedUp("lc");
    const [a, b] = [await post(me.client, "a"), await post(me.client, "b")];
    const scrollId = (await me.client.post("/api/scroll/create", { name: "picks", type: "curation" })).json.scroll._id;
    const result = await untilRefused(LIMITS.curate, (i) =>
      i % 2 === 0 ? me.client.post(`/api/scroll/${scrollId}/add-echo`, { echoId: a }) : me.client.delete(`/api/scroll/${scrollId}/remove-echo/${a}`),
    );
    expectRefusal(result, LIMITS.curate);
    const holdsA = result.passed % 2 === 1;
    const refused = await me.client.post(`/api/scroll/${scrollId}/add-echo`, { echoId: b });
    expect(refused.status).toBe(429);
    expectErrorShape(refused.json);
    const scroll = (await me.client.get(`/api/scroll/${scrollId}`)).json.scroll;
    expect(scroll.echosCount).toBe(holdsA ? 1 : 0);
    const echos = (await me.client.get(`/api/scroll/${scrollId}/echos`)).json.echos as Json[];
    expect(echos.map((e) => e._id)).toEqual(holdsA ? [a] : []);
  });

  it(`shares: ${LIMITS.share} calls per 10 minutes`, async () => {
    const [me, author] = await Promise.all([signedUp("ls"), signedUp("lsa")]);
    const [a, b] = [await post(author.client, "a"), await post(author.client, "b")];
    const result = await untilRefused(LIMITS.share, () => me.client.post(`/api/echo/${a}/share`));
    expectRefusal(result, LIMITS.share);
    const refused = await me.client.post(`/api/echo/${b}/share`);
    expect(refused.status).toBe(429);
    expectErrorShape(refused.json);
    expect((await me.client.get(`/api/echo/echo/${b}`)).json.echo.shares).toBe(0);
    expect((await me.client.get(`/api/echo/echo/${a}`)).json.echo.shares).toBe(1);
  });

  it(`marking notifications read: ${LIMITS.notificationsRead} calls per 10 minutes`, async () => {
    const [me, fan] = await Promise.all([signedUp("ln"), signedUp("lnf")]);
    const result = await untilRefused(LIMITS.notificationsRead, () => me.client.post("/api/notifications/read"));
    expectRefusal(result, LIMITS.notificationsRead);
    // a new notification, then a refused mark: it stays unread
    expect((await fan.client.post(`/api/profile/user/${me.user._id}/follow`)).status).toBe(200);
    const refused = await me.client.post("/api/notifications/read");
    expect(refused.status).toBe(429);
    expectErrorShape(refused.json);
    expect((await me.client.get("/api/notifications")).json.unreadCount).toBe(1);
  });

  it(`previews (POST /api/scroll/preview): ${LIMITS.preview} per 10 minutes`, async () => {
    const me = await signedUp("lp");
    const result = await untilRefused(LIMITS.preview, (i) => me.client.post("/api/scroll/preview", { feedConfig: { includedTags: [`lp${i % 7}`] } }));
    expectRefusal(result, LIMITS.preview);
  });

  it(`exports: ${LIMITS.export} per hour; a refused one is a 429 before any byte of the file`, async () => {
    const me = await signedUp("le");
    const result = await untilRefused(LIMITS.export, () => me.client.get("/api/profile/me/export"));
    expectRefusal(result, LIMITS.export);
    expect(result.refusal.headers.get("content-disposition")).toBeNull();
  });

  it(`live handshakes: ${LIMITS.liveHandshake} per minute per account, refused before the upgrade`, async () => {
    const [me, other] = await Promise.all([signedUp("lw"), signedUp("lwo")]);
    let passed = 0;
    let refusal: Awaited<ReturnType<typeof handshake>> | null = null;
    for (let i = 0; i < 2 * LIMITS.liveHandshake + 1; i++) {
      const res = await handshake("/api/live?all=1", { Cookie: me.client.cookie });
      if (res.status === 429) {
        refusal = res;
        break;
      }
      expect(res.status).toBe(101);
      passed++;
    }
    expect(passed).toBeGreaterThanOrEqual(LIMITS.liveHandshake);
    expect(refusal?.status).toBe(429);
    expect(Number(refusal!.headers["retry-after"])).toBeGreaterThan(0);
    expectErrorShape(refusal!.json ?? undefined);
    // per account: another account's handshake still opens
    expect((await handshake("/api/live?all=1", { Cookie: other.client.cookie })).status).toBe(101);
  });
});
