// The unread count and safety (issue 32, migration 0032): the count counts only what the list
// shows — not a like from someone the recipient mutes or blocks, not a mention whose echo their
// "hide" word matches in Notifications, not an action of a limited or suspended account — and
// undoing a counted group takes back exactly one, whatever the recipient muted since. The mutes,
// the word and the limit are written as their writers write them (the profile and moderation
// modules, which this module may not import): the triggers and the compiled word set do the rest.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { listNotifications, markAllRead } from "../notification/index.server";
import { batch, rebuildMutedWordSet, sql, testAppContext } from "../shared/index.server";
import { postEcho, setLike } from "./echo.server";

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user;
const unread = async (id: string) => (await env.DB.prepare("SELECT unread_notifications AS n FROM users WHERE id = ?").bind(id).first<{ n: number }>())!.n;

describe("the unread count honours mutes, muted words and moderation (real D1)", () => {
  it("counts only what the list shows, and takes back exactly what it counted", async () => {
    const me = await user("un_me");
    const [muted, plain, wordy, limited] = await Promise.all(["un_muted", "un_plain", "un_wordy", "un_limited"].map(user));
    const mute = (id: string) => sql`INSERT INTO mutes (muter_id, muted_id, created_at) VALUES (${me._id}, ${id}, 1)`;
    const mine = await postEcho(app(), me._id, { content: "my echo", tags: [] });
    await batch(app().db, [
      mute(muted!._id),
      // bit 16: the Notifications context (modules/shared/mute-text.ts)
      sql`INSERT INTO muted_words (user_id, id, phrase, pattern, action, contexts, created_at) VALUES (${me._id}, 'w1', 'spoilerz', ' spoilerz ', 'hide', 16, 1)`,
      ...rebuildMutedWordSet(me._id, Date.now()),
      sql`INSERT INTO moderation_set (id, entries) VALUES (1, json_object(${"u:" + limited!._id}, 1))
        ON CONFLICT (id) DO UPDATE SET entries = json_set(entries, ${`$."u:${limited!._id}"`}, 1)`,
    ]);

    await setLike(app(), muted!._id, mine._id, true); // hidden: a muted actor
    await postEcho(app(), wordy!._id, { content: "@un_me spoilerz ahead", tags: [] }); // hidden: a hide word
    await setLike(app(), limited!._id, mine._id, true); // hidden: a limited account (the like group's newest actor)
    expect(await unread(me._id)).toBe(0);
    expect((await listNotifications(app(), me._id)).notifications).toEqual([]);

    await postEcho(app(), plain!._id, { content: "@un_me hello", tags: [] }); // shown
    expect(await unread(me._id)).toBe(1);
    const page = await listNotifications(app(), me._id);
    expect(page.unreadCount).toBe(1);
    expect(page.notifications.map((n) => n.actor._id)).toEqual([plain!._id]);

    // undoing a group counted before a mute takes back one, not zero: the count stays exact
    const liked = await postEcho(app(), me._id, { content: "another", tags: [] });
    await setLike(app(), plain!._id, liked._id, true);
    expect(await unread(me._id)).toBe(2);
    await batch(app().db, [mute(plain!._id)]);
    await setLike(app(), plain!._id, liked._id, false);
    expect(await unread(me._id)).toBe(1);
    await markAllRead(app(), me._id);
    expect(await unread(me._id)).toBe(0);
  });

  // (migration 0038) the list shows a group whose newest actor is hidden, led by its newest visible
  // actor among its newest three: the count must count it too, and leave out one whose three are all hidden
  it("counts a group whose newest actor is hidden while the list shows it led by another", async () => {
    const me = await user("uh_me");
    const [cat, lim, ann, ben] = await Promise.all(["uh_cat", "uh_lim", "uh_ann", "uh_ben"].map(user));
    const tick = () => new Promise((r) => setTimeout(r, 3)); // distinct created_at: the window's order
    const shown = async () => (await listNotifications(app(), me._id)).notifications.map((n) => [n.echo?._id, n.actor.userName, n.actorCount, n.unread]);
    const first = await postEcho(app(), me._id, { content: "liked, then by a limited account", tags: [] });
    const second = await postEcho(app(), me._id, { content: "liked, a like taken back", tags: [] });
    await batch(app().db, [
      sql`INSERT INTO moderation_set (id, entries) VALUES (1, json_object(${"u:" + lim!._id}, 1))
        ON CONFLICT (id) DO UPDATE SET entries = json_set(entries, ${`$."u:${lim!._id}"`}, 1)`,
    ]);
    // the newest like from a limited account: listed led by cat, and counted
    await setLike(app(), cat!._id, first._id, true);
    await tick();
    await setLike(app(), lim!._id, first._id, true);
    expect(await shown()).toEqual([[first._id, "uh_cat", 1, true]]);
    expect(await unread(me._id)).toBe(1);
    // cat, then ann, whom I mute after; ben's like leads, then is taken back: ann leads again
    await setLike(app(), cat!._id, second._id, true);
    await tick();
    await setLike(app(), ann!._id, second._id, true);
    await batch(app().db, [sql`INSERT INTO mutes (muter_id, muted_id, created_at) VALUES (${me._id}, ${ann!._id}, 1)`]);
    await tick();
    await setLike(app(), ben!._id, second._id, true);
    await setLike(app(), ben!._id, second._id, false);
    // the second group: led by cat (ann stepped over), unread, and counted as the list shows it
    expect(await shown()).toEqual([
      [second._id, "uh_cat", 1, true],
      [first._id, "uh_cat", 1, true],
    ]);
    const page = await listNotifications(app(), me._id);
    expect(page.notifications.filter((n) => n.unread)).toHaveLength(2);
    expect(await unread(me._id)).toBe(2);
    expect(page.unreadCount).toBe(2);
  });
});
