// A heavy hider reading a hide-liked feed (issue 32, decision 033, "Hiders of hide-liked feeds"):
// a viewer who blocks 6 of a feed's 10 authors, mutes two words common among the rest and liked a
// third of what is left does not see ~80 % of its matches. Their `v:` index (the rule's less what
// they liked) still holds the hidden ones, so a page's run of 54 entries held ~13 visible: short
// pages. Their short page now asks for their hiding index of the rule, which leaves out both what
// they liked and what they hide for good; once the queue built it every page — by cursor and by
// number — is full, each visible match once in order, ≤ 2 round trips, ≤ 200 rows. Then a like,
// an unlike, a new block, an unblock, a muted word and a moderator's hide and unhide: the next
// pages show nothing liked or hidden, and equal the reference once the queue drained.
// Real D1, the real consumer run between pages as it runs beside them.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { setLike } from "../echo/index.server";
import { batch, sql, testAppContext } from "../shared/index.server";
import { baseRule, cappedScroll, drainQueue, keptQueue, measured, pageBothWays, viewerIndexState } from "./depth-paging.test-support";
import { ruleKeyOf } from "./rule.server";
import { blockFor, changeHiding, muteWordFor, pagesShowNone, shortPages, writeHiderEchos, type HiderEcho } from "./hider-echos.test-support";
import type { FeedRule } from "./schema";

const { env: queued, sent } = keptQueue(env);
const app = () => testAppContext(queued);
const ECHOS = 700;

const drain = () => drainQueue(app(), sent);

const block = (viewer: string, author: string, on: boolean) => blockFor(app(), sent, viewer, author, on);
const muteWord = (viewer: string, phrase: string) => muteWordFor(app(), sent, viewer, phrase);
/** A moderator's hide of an echo (from everyone but its author), and its undoing: the moderation set's entry. */
const moderate = (echoId: string, hidden: boolean) =>
  batch(app().db, [
    hidden
      ? sql`INSERT INTO moderation_set (id, entries) VALUES (1, json_object(${`e:${echoId}`}, 1)) ON CONFLICT (id) DO UPDATE SET entries = json_set(entries, ${`$."e:${echoId}"`}, 1)`
      : sql`UPDATE moderation_set SET entries = json_remove(entries, ${`$."e:${echoId}"`}) WHERE id = 1`,
  ]);

describe("a heavy hider's index of a hide-liked feed", { timeout: 600_000 }, () => {
  for (const sortBy of ["newestFirst", "mostLiked"] as const) {
    it(`${sortBy}, ~80 % liked or hidden: every page full once their index is built, and after likes, blocks, words and moderation`, async () => {
      const who = sortBy === "mostLiked" ? "ml" : "nf";
      const tag = `hiderliked${who}`;
      const viewer = (await signup(app(), { userName: `hl_v_${who}`, password: "pass1234" })).user._id;
      const { authors, echos } = await writeHiderEchos(app(), tag, who, "hl_a", ECHOS, (i) => [...(i % 8 === 1 ? ["alpha"] : []), ...(i % 8 === 5 ? ["beta"] : []), ...(i % 8 === 3 ? ["gamma"] : [])]);
      const rule: FeedRule = { ...baseRule, includedTags: [tag], sortBy, excludeLikedEchos: true };
      const blocked = new Set([0, 1, 2, 3, 4, 5]);
      const words = new Set(["alpha", "beta"]);
      const seen = (e: HiderEcho) => !blocked.has(e.author) && !e.words.some((w) => words.has(w));
      // the viewer liked a third of what they see (before the index: rows and counts as a store's)
      const liked = new Set(echos.filter((e, i) => seen(e) && i % 3 === 0).map((e) => e.id));
      await batch(app().db, [
        ...[...liked].map((id) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${viewer}, 0)`),
        sql`UPDATE echos SET likes_count = likes_count + 1 WHERE id IN (SELECT echo_id FROM likes WHERE user_id = ${viewer})`,
        sql`UPDATE echo_tags SET likes_count = likes_count + 1 WHERE echo_id IN (SELECT echo_id FROM likes WHERE user_id = ${viewer})`,
      ]);
      for (const e of echos) if (liked.has(e.id)) e.likes++;
      const scrollId = await cappedScroll(app(), viewer, rule, 10_000);
      for (const a of blocked) await block(viewer, authors[a]!, true);
      for (const phrase of words) await muteWord(viewer, phrase);
      const moderated = new Set<string>();
      const order = () => [...echos].sort((a, b) => (sortBy === "mostLiked" ? b.likes - a.likes : 0) || (a.id < b.id ? 1 : -1));
      const visible = (e: HiderEcho) => seen(e) && !liked.has(e.id) && !moderated.has(e.id);
      const expected = () => order().filter(visible).map((e) => e.id);
      const notShown = () => new Set(order().filter((e) => !visible(e)).map((e) => e.id));
      expect(expected().length / ECHOS).toBeLessThanOrEqual(0.21);
      await drain();
      sent.length = 0;

      // before their index: the shared index's hide-liked run, by cursor — short pages, which ask for the hiding kind
      const short = await shortPages(queued, viewer, scrollId);
      expect(short).toBeGreaterThan(0);
      expect(sent.some((c) => c.type === "viewer" && c.viewerId === viewer && c.hide)).toBe(true);
      await drain();
      const index = () => viewerIndexState(app(), ruleKeyOf(rule), viewer, "b");
      expect(await index()).toMatchObject({ complete: 1, entries: expected().length });
      let maxRows = await pageBothWays({ env: queued, viewerId: viewer, scrollId, expected: expected(), label: who, afterPage: async () => void (await drain()) });

      // a like and an unlike (through setLike: its message names the liker), then a new block, an
      // unblock, a third muted word, and a moderator hiding two echos the viewer sees
      const toLike = expected().slice(3, 5);
      const toUnlike = order().find((e) => liked.has(e.id) && seen(e))!;
      for (const id of toLike) {
        await setLike(app(), viewer, id, true);
        liked.add(id);
        echos.find((e) => e.id === id)!.likes++;
      }
      await setLike(app(), viewer, toUnlike.id, false);
      liked.delete(toUnlike.id);
      toUnlike.likes--;
      await changeHiding(app(), sent, viewer, authors, blocked, words);
      for (const id of expected().slice(0, 2)) {
        await moderate(id, true);
        moderated.add(id);
      }
      // before the queue drains: nothing liked or hidden shows, within budget
      await pagesShowNone(queued, viewer, scrollId, notShown());
      await drain();
      await measured(queued, viewer, scrollId, 1, undefined);
      await drain();
      expect(await index()).toMatchObject({ complete: 1, entries: expected().length + moderated.size });
      maxRows = Math.max(maxRows, await pageBothWays({ env: queued, viewerId: viewer, scrollId, expected: expected(), label: `${who} after`, afterPage: async () => void (await drain()) }));
      // the moderator takes one hide back: shown again at once, no rebuild
      const back = [...moderated][0]!;
      await moderate(back, false);
      moderated.delete(back);
      expect(sent).toEqual([]);
      maxRows = Math.max(maxRows, await pageBothWays({ env: queued, viewerId: viewer, scrollId, expected: expected(), label: `${who} unhidden` }));
      await moderate([...moderated][0]!, false);
      console.warn(`hiding index of a hide-liked feed ${who}: ${expected().length} visible of ${ECHOS}, ${short} short pages before it, max rows a page ${maxRows}`);
    });
  }
});
