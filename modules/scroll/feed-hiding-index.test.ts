// A heavy hider's feed (issue 32, decision 033, "The hiding half"): a viewer who blocks 6 of a
// feed's 10 authors and mutes two words common among the rest does not see ~70 % of its matches,
// so the shared index's filtered walk (58 entries a screen, decision 026's bound) gave short pages.
// Their short page asks for their hiding viewer index (the rule's index less what they hide for
// good), the queue's consumer builds it, and from then on every page — by cursor and by number — is
// full, each visible match once in the feed's order, ≤ 2 round trips, ≤ 200 rows. Then a block, an
// unblock and a new muted word: before the queue drains nothing hidden shows; after it, the pages
// equal the reference again; a timed mute hides on the page and its end shows its author again
// with no rebuild. Real D1, the real consumer run between pages as it runs beside them.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { batch, sql, testAppContext } from "../shared/index.server";
import { baseRule, cappedScroll, drainQueue, keptQueue, measured, pageBothWays, pageToTheEnd, viewerIndexState } from "./depth-paging.test-support";
import { ruleKeyOf } from "./rule.server";
import { blockFor, changeHiding, muteWordFor, pagesShowNone, shortPages, writeHiderEchos, type HiderEcho } from "./hider-echos.test-support";
import type { FeedRule } from "./schema";

const { env: queued, sent } = keptQueue(env);
const app = () => testAppContext(queued);
const ECHOS = 700;

const drain = () => drainQueue(app(), sent);

const hidingIndex = (ruleKey: string, viewerId: string) => viewerIndexState(app(), ruleKey, viewerId, true);

const block = (viewer: string, author: string, on: boolean) => blockFor(app(), sent, viewer, author, on);
const muteWord = (viewer: string, phrase: string) => muteWordFor(app(), sent, viewer, phrase);

type Echo = HiderEcho;

describe("a heavy hider's hiding viewer index", { timeout: 600_000 }, () => {
  for (const sortBy of ["newestFirst", "mostLiked"] as const) {
    it(`${sortBy}, ~70 % hidden: every page full once their index is built, and again after a block, an unblock and a muted word`, async () => {
      const who = sortBy === "mostLiked" ? "ml" : "nf";
      const tag = `hiderix${who}`;
      const viewer = (await signup(app(), { userName: `hx_v_${who}`, password: "pass1234" })).user._id;
      // echo i by author i % 10; "alpha" in one in eight, "beta" in another one in eight, "gamma" in a third
      const { authors, echos } = await writeHiderEchos(app(), tag, who, "hx_a", ECHOS, (i) => [
        ...(i % 8 === 1 ? ["alpha"] : []),
        ...(i % 8 === 5 ? ["beta"] : []),
        ...(i % 8 === 3 ? ["gamma"] : []),
      ]);
      const rule: FeedRule = { ...baseRule, includedTags: [tag], sortBy };
      const scrollId = await cappedScroll(app(), viewer, rule, 10_000);
      const blocked = new Set([0, 1, 2, 3, 4, 5]);
      const words = new Set(["alpha", "beta"]);
      for (const a of blocked) await block(viewer, authors[a]!, true);
      for (const phrase of words) await muteWord(viewer, phrase);
      const order = [...echos].sort((a, b) => (sortBy === "mostLiked" ? b.likes - a.likes : 0) || (a.id < b.id ? 1 : -1));
      const visible = (e: Echo) => !blocked.has(e.author) && !e.words.some((w) => words.has(w));
      const expected = () => order.filter(visible).map((e) => e.id);
      const hiddenIds = () => new Set(order.filter((e) => !visible(e)).map((e) => e.id));
      expect(expected().length / ECHOS).toBeLessThanOrEqual(0.3);
      sent.length = 0;

      // before their index: the shared index's filtered walk, by cursor — short pages, which ask
      const short = await shortPages(queued, viewer, scrollId);
      expect(short).toBeGreaterThan(0);
      expect(sent.some((c) => c.type === "viewer" && c.viewerId === viewer && c.hide)).toBe(true);
      await drain();
      const built = await hidingIndex(ruleKeyOf(rule), viewer);
      expect(built?.complete).toBe(1);
      expect(built?.entries).toBe(expected().length);

      let maxRows = await pageBothWays({ env: queued, viewerId: viewer, scrollId, expected: expected(), label: who, afterPage: async () => void (await drain()) });

      // a new block, an unblock and a new muted word
      await changeHiding(app(), sent, viewer, authors, blocked, words);
      expect(sent.filter((c) => c.type === "hiding").length).toBe(3);
      // before the queue drains: the index is stale, the page's own tests hide what it must
      await pagesShowNone(queued, viewer, scrollId, hiddenIds());
      await drain();
      // a first page (a short one asks again, if the rebuilt index is not known yet), the queue drained
      await scrollEchos1(viewer, scrollId);
      await drain();
      const rebuilt = await hidingIndex(ruleKeyOf(rule), viewer);
      expect(rebuilt?.complete).toBe(1);
      expect(rebuilt?.entries).toBe(expected().length);
      maxRows = Math.max(maxRows, await pageBothWays({ env: queued, viewerId: viewer, scrollId, expected: expected(), label: `${who} after`, afterPage: async () => void (await drain()) }));
      // a timed mute: its author stays in the index (the page hides them), so its end needs no rebuild
      const timed = 7;
      await batch(app().db, [sql`INSERT INTO mutes (muter_id, muted_id, created_at, expires_at) VALUES (${viewer}, ${authors[timed]!}, 1, ${Date.now() + 3_600_000})`]);
      const mutedFor = (e: Echo) => e.author === timed;
      const withTimed = () => order.filter((e) => visible(e) && !mutedFor(e)).map((e) => e.id);
      expect((await hidingIndex(ruleKeyOf(rule), viewer))?.entries).toBe(expected().length);
      const timedPages = await pageToTheEnd({ env: queued, viewerId: viewer, scrollId, expected: withTimed(), byNumber: false, label: `${who} timed mute` });
      // the mute ends (as the clock passes its end, in whole seconds as SQLite reads it): the same
      // index, its author's echos shown again
      await batch(app().db, [sql`UPDATE mutes SET expires_at = ${Date.now() - 5_000} WHERE muter_id = ${viewer} AND muted_id = ${authors[timed]!}`]);
      expect(sent).toEqual([]);
      const ended = await pageToTheEnd({ env: queued, viewerId: viewer, scrollId, expected: expected(), byNumber: true, label: `${who} timed mute ended` });
      maxRows = Math.max(maxRows, timedPages.maxRows, ended.maxRows);
      console.warn(`hiding index ${who}: ${expected().length} visible of ${ECHOS}, ${short} short pages before it, max rows a page ${maxRows}`);
    });
  }
});

const scrollEchos1 = async (viewer: string, scrollId: string) => (await measured(queued, viewer, scrollId, 1, undefined)).got;
