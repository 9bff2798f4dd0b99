// Moderation against the real schema (decision 029): the one moderation row the actions write and
// the lists read, and the cron's end of a suspension past its 30 days (deleted as account deletion
// deletes; a suspension lifted in time is not).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { consumeAccountPurges, signup, type Viewer } from "../auth/index.server";
import { listEchos, postEcho } from "../echo/index.server";
import { batch, CHAIN_STALL_MS, select, sql, stalledChains, tables, testAppContext, type Change } from "../shared/index.server";
import { purgeSuspended } from "../../verticals/scheduled";
import { actOnAccount, actOnEcho } from "./moderation.server";
import { SUSPENSION_GRACE_MS } from "./schema";

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user;

async function moderator(name: string): Promise<Viewer> {
  const u = await user(name);
  await batch(app().db, [sql`UPDATE users SET is_admin = 1 WHERE id = ${u._id}`]);
  return { ...u, sessionId: "", unreadNotifications: 0, isModerator: true };
}

async function modSet(): Promise<Record<string, number>> {
  const [rows] = await batch(app().db, [select({ entries: tables.moderationSet.entries }, sql`FROM moderation_set WHERE id = 1`)]);
  return rows[0] ? (JSON.parse(rows[0].entries) as Record<string, number>) : {};
}

/**
 * The account removals the pass started (decision 032: the account is marked at once, its rows
 * leave in the change stream's steps): their chains replayed and every step run, the queue an array.
 */
async function drainPurges() {
  const sent: Change[] = [];
  const queue = { sendBatch: async (messages: { body: Change }[]) => void sent.push(...messages.map((m) => m.body)) };
  const a = testAppContext({ ...env, FEED_EVENTS: queue } as unknown as Env);
  let changes = await stalledChains(a.db, Date.now() + CHAIN_STALL_MS + 1);
  for (let steps = 0; changes.length > 0 && steps < 100; steps++) {
    await consumeAccountPurges(a, a.db, changes);
    changes = sent.splice(0, sent.length);
  }
}

const exists = async (id: string) => {
  const [rows] = await batch(app().db, [select({ id: tables.users.id }, sql`FROM users WHERE id = ${id}`)]);
  return rows.length === 1;
};

describe("moderation (real D1)", { timeout: 60_000 }, () => {
  it("actions write integer entries of the one row; the lists leave them out; undoing removes them", async () => {
    const mod = await moderator("mod_set_m");
    const a = await user("mod_set_a");
    const viewer = await user("mod_set_v");
    const echo = await postEcho(app(), a._id, { content: "to hide", tags: [] });
    const kept = await postEcho(app(), a._id, { content: "kept", tags: [] });
    await actOnEcho(app(), mod, echo._id, true, "why");
    await actOnAccount(app(), mod, a._id, "limit", "why");
    expect(await modSet()).toMatchObject({ [`e:${echo._id}`]: 1, [`u:${a._id}`]: 1 });
    const all = await listEchos(app(), viewer._id, {}, { page: 1, limit: 20 });
    expect(all.echos.map((e) => e._id)).not.toContain(kept._id); // limited: out of All
    const profile = await listEchos(app(), viewer._id, { user: a._id }, { page: 1, limit: 20 });
    expect(profile.echos.map((e) => e._id)).toEqual([kept._id]); // on the profile, the hidden one not
    const own = await listEchos(app(), a._id, { user: a._id }, { page: 1, limit: 20 });
    expect(own.echos.map((e) => e._id)).toEqual([kept._id, echo._id]); // its author sees both
    await actOnAccount(app(), mod, a._id, "unlimit", "ok");
    await actOnEcho(app(), mod, echo._id, false, "ok");
    const after = await modSet();
    expect(after[`u:${a._id}`]).toBeUndefined();
    expect(after[`e:${echo._id}`]).toBeUndefined();
  });

  it("the cron deletes an account suspended more than 30 days ago, not one lifted, not one within its 30 days", async () => {
    const mod = await moderator("mod_cron_m");
    const [old, lifted, recent] = await Promise.all([user("mod_cron_old"), user("mod_cron_lifted"), user("mod_cron_recent")]);
    await postEcho(app(), old._id, { content: "gone with the account", tags: [] });
    for (const u of [old, lifted, recent]) await actOnAccount(app(), mod, u._id, "suspend", "why");
    await actOnAccount(app(), mod, lifted._id, "unsuspend", "appeal granted");
    const now = Date.now();
    // the old suspension began 31 days ago
    await batch(app().db, [sql`UPDATE users SET suspended_at = ${now - SUSPENSION_GRACE_MS - 86_400_000} WHERE id = ${old._id}`]);
    expect(await purgeSuspended(env, now)).toBe(1);
    await drainPurges();
    expect(await exists(old._id)).toBe(false);
    expect(await exists(lifted._id)).toBe(true);
    expect(await exists(recent._id)).toBe(true);
    const [echos] = await batch(app().db, [select({ id: tables.echos.id }, sql`FROM echos WHERE author_id = ${old._id}`)]);
    expect(echos).toEqual([]);
    // its entry left the set (trigger on users), the recent one's stays
    const set = await modSet();
    expect(set[`u:${old._id}`]).toBeUndefined();
    expect(set[`u:${recent._id}`]).toBe(2);
    // its audit log stays
    const [log] = await batch(app().db, [select({ action: tables.moderationActions.action }, sql`FROM moderation_actions WHERE target_user_id = ${old._id}`)]);
    expect(log.map((r) => r.action)).toEqual(["suspend"]);
  });
});
