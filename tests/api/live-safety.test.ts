// Live updates and safety (issue 32, decision 016 "Live updates and safety"): a socket gets what
// the page's list would show. A viewer's hide word keeps a new echo off their All, tag and
// Following sockets (in the word's contexts); a warn word sends it with `mutedWord` (Home only,
// here); a blocked author's echos reach no socket of the blocker; a limited account's echos leave
// the public pages' sockets (All, tags) and still reach its followers' Following.
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { signedUp } from "./client";
import { liveOpener, type LiveSocket } from "./live-client";

type Person = Awaited<ReturnType<typeof signedUp>>;
const uniq = (p: string) => p + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);
const live = liveOpener();

async function post(who: Person, content: string, tags: string[]) {
  const res = await who.client.post("/api/echo/post", { content, tags });
  expect(res.status, res.text).toBe(201);
  return res.json.echo._id as string;
}

/** The next message on `socket` about one of `ids` (others post on "all" meanwhile), or null. */
async function nextOf(socket: LiveSocket, ids: string[], ms = 3000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const m = await socket.next(deadline - Date.now());
    if (m === null) return null;
    if (ids.includes(m.echo?._id)) return m;
  }
  return null;
}

let viewer: Person;
let author: Person;
let tag: string;
let hideWord: string;
let warnWord: string;

beforeAll(async () => {
  [viewer, author] = (await Promise.all([signedUp("lsv"), signedUp("lsa")])) as [Person, Person];
  tag = uniq("ls");
  hideWord = uniq("hidew");
  warnWord = uniq("warnw");
  expect((await viewer.client.post(`/api/profile/user/${author.user._id}/follow`)).status).toBe(200);
  const all = ["home", "feeds", "tags", "search", "notifications"];
  expect((await viewer.client.post("/api/profile/me/muted-words", { phrase: hideWord, action: "hide", contexts: all, duration: "forever" })).status).toBe(200);
  expect((await viewer.client.post("/api/profile/me/muted-words", { phrase: warnWord, action: "warn", contexts: ["home"], duration: "forever" })).status).toBe(200);
}, 600_000);

describe("live updates honour muted words, blocks and moderation", () => {
  it("a hide word keeps the echo off All, the tag and Following; a warn word marks it on Home's pages only", async () => {
    const sockets = { all: await live(viewer, "all=1"), tag: await live(viewer, `tag=${tag}`), following: await live(viewer, "following=1") };
    const hidden = await post(author, `so ${hideWord} here`, [tag]);
    const warned = await post(author, `careful ${warnWord} here`, [tag]);
    const plain = await post(author, "plain words", [tag]);
    for (const [name, socket] of Object.entries(sockets)) {
      const first = await nextOf(socket, [hidden, warned, plain]);
      // the hidden echo never comes: the first of the three on each socket is the warned one
      expect(first?.echo._id, name).toBe(warned);
      expect(first?.echo.mutedWord, name).toBe(name === "tag" ? undefined : warnWord);
      const second = await nextOf(socket, [hidden, warned, plain]);
      expect(second?.echo._id, name).toBe(plain);
      expect(second?.echo.mutedWord, name).toBeUndefined();
    }
    // the author's own sockets get their echo, words are the viewer's
    const own = await live(author, `tag=${tag}`);
    const again = await post(author, `again ${hideWord}`, [tag]);
    expect((await nextOf(own, [again]))?.echo._id).toBe(again);
  });

  it("a blocked author's echo reaches none of the blocker's sockets", async () => {
    const blocked = await signedUp("lsb");
    expect((await viewer.client.post(`/api/profile/user/${blocked.user._id}/block`)).status).toBe(200);
    const all = await live(viewer, "all=1");
    const t = await live(viewer, `tag=${tag}`);
    const gone = await post(blocked, "from someone blocked", [tag]);
    const seen = await post(author, "after the blocked one", [tag]);
    for (const socket of [all, t]) expect((await nextOf(socket, [gone, seen]))?.echo._id).toBe(seen);
  });
});

const stateDir = process.env.TEST_STATE_DIR;
describe.skipIf(!stateDir)("live updates and a limited account", () => {
  it("a limited account's echo leaves the All and tag sockets and still reaches its followers' Following", async () => {
    const [mod, limited] = (await Promise.all([signedUp("lsm"), signedUp("lsl")])) as [Person, Person];
    const made = spawnSync(process.execPath, ["scripts/moderator.mjs", mod.user.userName], { env: { ...process.env, STATE_DIR: stateDir }, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    expect((await viewer.client.post(`/api/profile/user/${limited.user._id}/follow`)).status).toBe(200);
    expect((await mod.client.post(`/api/moderation/user/${limited.user._id}`, { action: "limit", reason: "Spammy" })).status).toBe(200);
    const all = await live(viewer, "all=1");
    const t = await live(viewer, `tag=${tag}`);
    const following = await live(viewer, "following=1");
    const out = await post(limited, "limited words", [tag]);
    const seen = await post(author, "after the limited one", [tag]);
    for (const socket of [all, t]) expect((await nextOf(socket, [out, seen]))?.echo._id).toBe(seen);
    expect((await nextOf(following, [out, seen]))?.echo._id).toBe(out);
  });
});
