// A moderator's limit and lift refresh the notification groups of the account's actions (decision
// 015, "Shown groups kept on write"): the action starts the actor's chain in its own batch and
// sends its first step; the queue's consumer walks the account's notifications a slice a step.
// Five recipients' 30 newest like groups are the limited account's (150 notifications: 15 steps of
// 10), their 25 older ones another's: once the limit is refreshed, a recipient's first page is
// full of the visible ones (with main's page: empty, its window all hidden); after the lift, the
// limited account's groups lead again.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../shared/index";
import { batch, sql, testAppContext, type Change } from "../shared/index.server";
import type { Viewer } from "../auth/index.server";
import { consumeNoticeRefreshes, listNotifications } from "../notification/index.server";
import { actOnAccount } from "./moderation.server";

const sent: Change[] = [];
const app = () => testAppContext({ ...env, FEED_EVENTS: { sendBatch: async (m: { body: Change }[]) => void sent.push(...m.map((x) => x.body)) } } as unknown as Env);

describe("a moderator's limit and lift refresh the account's notification groups (real D1)", () => {
  it("limited: the recipients' pages skip its groups once refreshed; lifted: they come back", { timeout: 120_000 }, async () => {
    const t0 = Date.now() - 1_000_000;
    const [mod, limited, other, ...recipients] = Array.from({ length: 8 }, (_, i) => newId(t0 + i));
    const likes = recipients.flatMap((r, i) =>
      Array.from({ length: 55 }, (_, j) => {
        const echo = newId(t0 + 1000 + i * 100 + j);
        // the oldest 25 liked by `other`, the newest 30 by the limited account
        return [
          sql`INSERT INTO echos (id, author_id, content, tags, created_at) VALUES (${echo}, ${r!}, 'mine', '[]', ${t0 + j})`,
          sql`INSERT INTO notifications (recipient_id, kind, group_key, actor_id, echo_id, created_at) VALUES (${r!}, 'like', ${echo}, ${j >= 25 ? limited! : other!}, ${echo}, ${t0 + 1000 + j})`,
        ];
      }),
    );
    await batch(app().db, [
      ...[mod, limited, other, ...recipients].map((id, i) => sql`INSERT INTO users (id, user_name, password_hash, created_at, is_admin) VALUES (${id!}, ${`mns_${i}`}, 'x', 1, ${i === 0 ? 1 : 0})`),
      ...likes.flat(),
    ]);
    const moderator = { _id: mod!, userName: "mns_0", sessionId: "", unreadNotifications: 0, isModerator: true } as unknown as Viewer;
    const drain = async () => {
      while (sent.length > 0) await consumeNoticeRefreshes(app(), app().db, sent.splice(0), Date.now(), 10);
    };
    const firstPage = async (r: string) => (await listNotifications(app(), r)).notifications.map((n) => n.actor._id);

    await actOnAccount(app(), moderator, limited!, "limit", "spam");
    expect(sent.map((c) => c.type)).toEqual(["noticeActor"]);
    await drain();
    for (const r of [recipients[0]!, recipients.at(-1)!]) expect(await firstPage(r)).toEqual(Array(20).fill(other));
    await actOnAccount(app(), moderator, limited!, "unlimit", "ok");
    await drain();
    for (const r of [recipients[0]!, recipients.at(-1)!]) expect(await firstPage(r)).toEqual(Array(20).fill(limited));
  });
});
