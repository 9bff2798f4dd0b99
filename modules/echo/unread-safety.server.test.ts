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
});
