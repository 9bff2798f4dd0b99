// Shown groups kept on write (issue 32, decision 015 "Shown groups kept on write", migration 0041):
// a viewer whose newest 66 notification groups they hide — likes by an account they muted after
// the likes, mentions holding a "hide" word, likes by an account a moderator limited — gets full
// pages of the visible ones behind the run once the refreshes the hiding changes started (chains
// of the change stream, run here as the queue's consumer runs them) are done: page 1 full, every
// page by cursor full until the end, each visible group once, in order, ≤ 2 round trips and ≤ 200
// rows. Before a refresh is done nothing hidden shows; after the unmute, the word's removal and
// the lift are refreshed, the groups come back, and the bell counts what the list shows.
// On main the pages behind the run come back empty with their cursor (0, 0, 20, 10 here).
// (Here, beside the mute and word writes that start the refreshes; the limit is written as the
// moderators' action writes it, with its refresh — modules/moderation/notification-shown.test.ts
// runs the action itself.)
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { echoMuteText, newId } from "../shared/index";
import { batch, select, sql, testAppContext, testUsers, overBudget, walkCounted, walkTable, type Change } from "../shared/index.server";
import { consumeNoticeRefreshes, listNotifications, refreshActor } from "../notification/index.server";
import { pruneSessions } from "../../verticals/scheduled";
import { addMutedWord, pruneEndedWords, removeMutedWord } from "./muted-words.server";
import { setMute } from "./safety.server";

/** The test env with a queue that keeps what the writes send, for the test to run when it chooses. */
const sent: Change[] = [];
const queued = { ...env, FEED_EVENTS: { sendBatch: async (messages: { body: Change }[]) => void sent.push(...messages.map((m) => m.body)) } } as unknown as Env;
const app = () => testAppContext(queued);
const db = () => app().db;

/** The queue drained: every refresh step (a slice of 10, so each chain takes several steps), until
 * none is left. Each message comes twice (the queue delivers at least once): the repeat recomputes
 * its slice again but moves no chain and sends nothing. */
async function drain(): Promise<number> {
  let steps = 0;
  while (sent.length > 0) {
    const messages = sent.splice(0);
    steps += await consumeNoticeRefreshes(app(), db(), messages, Date.now(), 10);
    const next = sent.length;
    await consumeNoticeRefreshes(app(), db(), messages, Date.now(), 10);
    expect(sent.length).toBe(next);
  }
  return steps;
}

/** Each group a second after the last, well in the past. */
let at = Date.now() - 10_000_000;
const tick = () => (at += 1000);
const users = (prefix: string, n: number) => testUsers(db(), prefix, n, tick);

type Group = { echoId: string; actor: string };

/** A like group of the viewer's echo by `liker`, or a mention of the viewer by `author` (with `text`): written as the app writes them, the triggers making the group. */
async function group(viewer: string, spec: { liker: string } | { author: string; text: string }): Promise<Group> {
  const at = tick();
  const id = newId(at);
  if ("liker" in spec) {
    await batch(db(), [
      sql`INSERT INTO echos (id, author_id, content, tags, created_at, mute_text) VALUES (${id}, ${viewer}, 'mine', '[]', ${at}, ${echoMuteText({ content: "mine", tags: [] })})`,
      sql`INSERT INTO notifications (recipient_id, kind, group_key, actor_id, echo_id, created_at) VALUES (${viewer}, 'like', ${id}, ${spec.liker}, ${id}, ${at})`,
    ]);
    return { echoId: id, actor: spec.liker };
  }
  const content = `hi @nsv ${spec.text} ${id}`;
  await batch(db(), [
    sql`INSERT INTO echos (id, author_id, content, tags, created_at, mute_text) VALUES (${id}, ${spec.author}, ${content}, '[]', ${at}, ${echoMuteText({ content, tags: [] })})`,
    sql`INSERT INTO notifications (recipient_id, kind, group_key, actor_id, echo_id, created_at) VALUES (${viewer}, 'mention', ${id}, ${spec.author}, ${id}, ${at})`,
  ]);
  return { echoId: id, actor: spec.author };
}

const walk = (viewerId: string) =>
  walkCounted(env, async (a, cursor) => {
    const page = await listNotifications(a, viewerId, cursor);
    return { items: page.notifications.map((n) => n.echo?._id ?? ""), next: page.pagination.nextCursor };
  });

const unread = async (viewerId: string) => (await batch(db(), [select({ n: sql<number>`unread_notifications` }, sql`FROM users WHERE id = ${viewerId}`)]))[0][0]!.n;
const chains = async () => (await batch(db(), [select({ key: sql<string>`key` }, sql`FROM stream_chains WHERE key LIKE 'notice%'`)]))[0].map((r) => r.key);

describe("notification groups' shown state kept on write (real D1)", () => {
  it("a hider's pages behind a run of 66 hidden groups: full once refreshed; a hiding change taken back brings them back", { timeout: 300_000 }, async () => {
    const [viewer, muted, limited, author, plain] = await users("nsv_", 5);
    await batch(db(), [sql`UPDATE users SET user_name = 'nsv' WHERE id = ${viewer!}`]);
    // a moderator's limit or lift (moderation's actOnAccount): the set's entry and the actor's refresh, in one batch
    const moderate = async (limit: boolean) => {
      const notices = refreshActor(limited!, Date.now());
      await batch(db(), [
        limit
          ? sql`INSERT INTO moderation_set (id, entries) VALUES (1, json_object(${`u:${limited!}`}, 1)) ON CONFLICT (id) DO UPDATE SET entries = json_set(entries, ${`$."u:${limited!}"`}, 1)`
          : sql`UPDATE moderation_set SET entries = json_remove(entries, ${`$."u:${limited!}"`}) WHERE id = 1`,
        notices.start(sql`true`),
      ]);
      sent.push(notices.change);
    };
    // oldest first: 30 visible groups (likes by plain, plain mentions), then the run of 66 the viewer will hide
    const visible: Group[] = [];
    for (let i = 0; i < 30; i++) visible.push(await group(viewer!, i % 2 ? { liker: plain! } : { author: author!, text: "plain" }));
    const run: Group[] = [];
    for (let i = 0; i < 66; i++) run.push(await group(viewer!, [{ liker: muted! }, { author: author!, text: "nswordz" }, { liker: limited! }][i % 3]!));
    const byMuted = run.filter((g) => g.actor === muted);
    const byWord = run.filter((g) => g.actor === author);
    const byLimited = run.filter((g) => g.actor === limited);
    const newestFirst = (groups: Group[]) => [...groups].reverse().map((g) => g.echoId);
    expect(await unread(viewer!)).toBe(96);

    // the hiding changes, through the app's own writes (their chains start in their batches)
    await setMute(app(), viewer!, muted!, "forever");
    const word = await addMutedWord(app(), viewer!, { phrase: "nswordz", action: "hide", contexts: ["notifications"], duration: "forever" });
    await moderate(true);
    expect(sent.filter((c) => c.type === "noticeShown" || c.type === "noticeActor")).toHaveLength(3);
    // before the refreshes: nothing hidden shows (the page still tests every group), within budget
    const hidden = new Set(run.map((g) => g.echoId));
    const before = await walk(viewer!);
    expect(before.items.filter((id) => hidden.has(id))).toEqual([]);
    expect(before.items).toEqual(newestFirst(visible).slice(0, before.items.length));

    // the queue drained: the chains walked the viewer's groups and the limited account's notifications
    const steps = await drain();
    expect(steps).toBeGreaterThan(3);
    expect(await chains()).toEqual([]);
    const after = await walk(viewer!);
    expect(after.items).toEqual(newestFirst(visible));
    expect(after.pages.map((p) => p.shown)).toEqual([20, 10]);
    // the bell counts what the list shows (the refresh recounted the groups it hides now)
    expect(await unread(viewer!)).toBe(30);

    // taken back: the unmute and the word's removal; before their refresh the limited account's stay out
    await setMute(app(), viewer!, muted!, false);
    await removeMutedWord(app(), viewer!, word._id);
    const pending = await walk(viewer!);
    expect(pending.items.filter((id) => byLimited.some((g) => g.echoId === id))).toEqual([]);
    await drain();
    const back = await walk(viewer!);
    expect(back.items).toEqual(newestFirst([...visible, ...run.filter((g) => g.actor !== limited)].sort((a, b) => (a.echoId < b.echoId ? -1 : 1))));
    expect(back.pages.map((p) => p.shown)).toEqual([20, 20, 20, 14]);
    expect(byMuted.length + byWord.length).toBe(44);
    // the lift: the limited account's groups come back too, and the bell counts all 96 again
    await moderate(false);
    await drain();
    const all = await walk(viewer!);
    expect(all.items).toEqual(newestFirst([...visible, ...run]));
    expect(await unread(viewer!)).toBe(96);

    const walks = { "hides 66 of 96, before the refresh": before.pages, "after it": after.pages, "unmuted, word removed": back.pages, lifted: all.pages };
    console.warn(walkTable(walks));
    expect(Object.entries(walks).flatMap(([name, pages]) => overBudget(pages).map((p) => `${name}: ${p}`))).toEqual([]);
  });

  // a timed mute or word hides until its end: the cron's pruning of ended ones starts the refresh
  it("a timed mute's and a timed word's end: the cron's pruning refreshes the viewer's groups", { timeout: 120_000 }, async () => {
    const [viewer, muted, author] = await users("nse_", 3);
    const older: Group[] = [];
    for (let i = 0; i < 10; i++) older.push(await group(viewer!, { author: author!, text: "plain" }));
    const run: Group[] = [];
    for (let i = 0; i < 40; i++) run.push(await group(viewer!, i % 2 ? { liker: muted! } : { author: author!, text: "nsendz" }));
    await setMute(app(), viewer!, muted!, "1h");
    await addMutedWord(app(), viewer!, { phrase: "nsendz", action: "hide", contexts: ["notifications"], duration: "1h" });
    await drain();
    expect((await walk(viewer!)).items).toEqual(older.map((g) => g.echoId).reverse());
    // both end (moved into the past): the lists test them by the clock, but the stored states wait for the cron
    await batch(db(), [
      sql`UPDATE mutes SET expires_at = ${Date.now() - 1} WHERE muter_id = ${viewer!}`,
      sql`UPDATE muted_words SET expires_at = ${Date.now() - 1} WHERE user_id = ${viewer!}`,
    ]);
    expect((await walk(viewer!)).items).toHaveLength(10);
    const cron = app();
    await pruneSessions(queued, Date.now(), cron.ctx);
    expect(await pruneEndedWords(cron, Date.now())).toBe(1);
    expect(sent.filter((c) => c.type === "noticeShown")).toHaveLength(2);
    await drain();
    const back = await walk(viewer!);
    expect(back.items).toEqual([...older, ...run].map((g) => g.echoId).reverse());
    expect(overBudget(back.pages)).toEqual([]);
  });
});
