// A hider's hide-liked index made before their first page (issue 32, decision 033, "Hiders of
// hide-liked feeds": the kind made on like and by the cron's walk). A hider's page of a hide-liked
// feed reads their `b:` index (liked and hidden left out), never a `v:` one; so a hider whose likes
// stand dense in such a feed gets the `b:` kind made on like (and by the walk, for likes from
// before), and their first page after the queue drained — from a new isolate — is full, ≤ 2 round
// trips, ≤ 200 rows, nothing liked or hidden shown. A reader whom nothing hides still gets `v:`,
// and loses it with their first block (their pages read `b:` from then on).
// Real D1, the queue's consumer run as it runs beside the writes.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { setLike } from "../echo/index.server";
import { batch, forgetAllHints, sql, testAppContext } from "../shared/index.server";
import { baseRule, cappedScroll, drainQueue, keptQueue, measured, pageBothWays, viewerIndexState } from "./depth-paging.test-support";
import { blockFor, writeHiderEchos } from "./hider-echos.test-support";
import { ruleKeyOf } from "./rule.server";
import { walkDenseLikes } from "./feed-viewer-walk.server";
import { repairIndexes } from "./feed-index-repair.server";
import type { FeedRule } from "./schema";

const { env: queued, sent } = keptQueue(env);
const app = () => testAppContext(queued);
const drain = () => drainQueue(app(), sent);
const BLOCKED = [0, 1, 2];

/** 300 echos of a new tag by 10 authors (newest first: `order`), a hider who blocks 3 of them, a
 * reader who hides nothing, and the hide-liked feed of the tag (its shared index built). */
async function hiderFeed(who: string) {
  const tag = `eagerhider${who}`;
  const { authors, echos } = await writeHiderEchos(app(), tag, who, "eh_a", 300, () => []);
  const hider = (await signup(app(), { userName: `eh_h_${who}`, password: "pass1234" })).user._id;
  const plain = (await signup(app(), { userName: `eh_p_${who}`, password: "pass1234" })).user._id;
  const rule: FeedRule = { ...baseRule, includedTags: [tag], excludeLikedEchos: true };
  const scrollId = await cappedScroll(app(), hider, rule, 10_000);
  for (const a of BLOCKED) await blockFor(app(), sent, hider, authors[a]!, true);
  await drain();
  const order = [...echos].reverse();
  // the newest 150 the hider sees, liked: 3 of every 10 entries hidden, the other 7 liked —
  // no unliked one in a run of 51 (a page from the shared index is short)
  const liked = order.slice(0, 150).filter((e) => !BLOCKED.includes(e.author)).map((e) => e.id);
  const hidden = new Set(order.filter((e) => BLOCKED.includes(e.author)).map((e) => e.id));
  return { authors, order, hider, plain, rule, scrollId, liked, hidden };
}

/** The hider's (or `viewer`'s, who does not see `hidden`) first page from a new isolate, then every
 * page by cursor and by number: full, ≤ 2 round trips, ≤ 200 rows, each visible unliked echo once
 * in order. Returns the max rows. */
async function hiderPages(f: Awaited<ReturnType<typeof hiderFeed>>, label: string, viewer = f.hider, hidden = f.hidden) {
  const liked = new Set(f.liked);
  const expected = f.order.filter((e) => !liked.has(e.id) && !hidden.has(e.id)).map((e) => e.id);
  forgetAllHints();
  const { got, stats } = await measured(queued, viewer, f.scrollId, 1, undefined);
  expect(got.echos.map((e) => e._id), `${label}: first page`).toEqual(expected.slice(0, 20));
  expect(stats.roundTrips).toBeLessThanOrEqual(2);
  expect(stats.rowsRead).toBeLessThanOrEqual(200);
  const maxRows = await pageBothWays({ env: queued, viewerId: viewer, scrollId: f.scrollId, expected, label });
  return Math.max(maxRows, stats.rowsRead);
}

const indexesOf = async (viewerId: string) =>
  ((await batch(app().db, [sql`SELECT rule_key FROM feed_indexes WHERE viewer_id = ${viewerId} ORDER BY rule_key`]))[0] as { rule_key: string }[]).map((r) => r.rule_key[0]);

describe("a hider's hide-liked index made before their first page", { timeout: 600_000 }, () => {
  it("made on like: a hider's dense likes make their b: index (a plain reader's still v:); the first page after the queue is full", async () => {
    const f = await hiderFeed("like");
    const key = ruleKeyOf(f.rule);
    sent.length = 0;
    for (const id of f.liked) {
      await setLike(app(), f.hider, id, true);
      await setLike(app(), f.plain, id, true);
      await drain();
    }
    // the hider's kind is the one their page reads; the reader whom nothing hides keeps `v:`
    expect(await indexesOf(f.hider)).toEqual(["b"]);
    expect(await viewerIndexState(app(), key, f.hider, "b")).toMatchObject({ complete: 1, entries: 300 - f.hidden.size - f.liked.length });
    expect(await indexesOf(f.plain)).toEqual(["v"]);
    expect(await viewerIndexState(app(), key, f.plain, "v")).toMatchObject({ complete: 1, entries: 300 - f.liked.length });
    sent.length = 0;
    const maxRows = await hiderPages(f, "hider, made on like");
    // no page asked for an index (the one it reads was there)
    expect(sent.filter((c) => c.type === "viewer" && !c.touch)).toEqual([]);
    // the plain reader's first block: their `v:` index is no longer read, and goes with the reset
    await blockFor(app(), sent, f.plain, f.authors[9]!, true);
    await drain();
    expect(await indexesOf(f.plain)).toEqual([]);
    console.warn(`hider made on like: every page full, max rows ${maxRows}`);
  });

  it("the cron's walk: a hider's dense likes from before (no message) make their b: index", async () => {
    const f = await hiderFeed("walk");
    await batch(app().db, f.liked.map((id) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${f.hider}, 0)`));
    sent.length = 0;
    for (let run = 0; run < 20 && (await walkDenseLikes(app(), app().db, Date.now())).indexes > 0; run++);
    const made = () => sent.filter((c) => c.type === "viewer" && c.eager && c.viewerId === f.hider);
    // the walk's runs consumed (its checks send the make), then the make drained
    await drainQueue(app(), sent.splice(0).filter((c) => c.type === "runs"));
    expect(made()).toMatchObject([{ ruleKey: ruleKeyOf(f.rule), hide: true, liked: true, eager: true }]);
    await drain();
    expect(await indexesOf(f.hider)).toEqual(["b"]);
    const maxRows = await hiderPages(f, "hider, walked");
    console.warn(`hider walked: every page full, max rows ${maxRows}`);
  });
  it("a hider who stops hiding: their b: and h: indexes go with the reset of their last unblock; v: made again on dense likes", async () => {
    const f = await hiderFeed("stop");
    // an `h:` index too: the hider's of the same tag without "hide liked"
    const plainRule: FeedRule = { ...f.rule, excludeLikedEchos: false };
    await cappedScroll(app(), f.hider, plainRule, 10_000);
    sent.length = 0;
    await drainQueue(app(), [{ type: "viewer", ruleKey: ruleKeyOf(plainRule), viewerId: f.hider, floor: null, hide: true }]);
    for (const id of f.liked) {
      await setLike(app(), f.hider, id, true);
      await drain();
    }
    expect(await indexesOf(f.hider)).toEqual(["b", "h"]);
    // still hiding after two unblocks: both kept (and made again)
    await blockFor(app(), sent, f.hider, f.authors[BLOCKED[0]!]!, false);
    await blockFor(app(), sent, f.hider, f.authors[BLOCKED[1]!]!, false);
    await drain();
    expect(await indexesOf(f.hider)).toEqual(["b", "h"]);
    // the last unblock: nothing hides an echo from them, no page of theirs reads either kind again
    await blockFor(app(), sent, f.hider, f.authors[BLOCKED[2]!]!, false);
    await drain();
    expect(await indexesOf(f.hider)).toEqual([]);
    // their next dense like makes the kind their pages now read, `v:`
    await setLike(app(), f.hider, f.liked[0]!, false);
    await drain();
    await setLike(app(), f.hider, f.liked[0]!, true);
    await drain();
    expect(await indexesOf(f.hider)).toEqual(["v"]);
    expect(await viewerIndexState(app(), ruleKeyOf(f.rule), f.hider, "v")).toMatchObject({ complete: 1, entries: 300 - f.liked.length });
    sent.length = 0;
    const maxRows = await hiderPages(f, "former hider", f.hider, new Set());
    expect(sent.filter((c) => c.type === "viewer" && !c.touch)).toEqual([]);
    console.warn(`former hider: b: and h: dropped, v: made on like, every page full, max rows ${maxRows}`);
  });

  it("moderation does not choose the kind: a reader who hides nothing gets v: while an account is limited; a b: of theirs is dropped by the repair pass", async () => {
    const f = await hiderFeed("mod");
    const limited = f.authors[5]!;
    const limit = (on: boolean) =>
      batch(app().db, [
        on
          ? sql`INSERT INTO moderation_set (id, entries) VALUES (1, json_object(${`u:${limited}`}, 1)) ON CONFLICT (id) DO UPDATE SET entries = json_set(entries, ${`$."u:${limited}"`}, 1)`
          : sql`UPDATE moderation_set SET entries = json_remove(entries, ${`$."u:${limited}"`}) WHERE id = 1`,
        sql`UPDATE users SET mod_state = ${on ? 1 : 0} WHERE id = ${limited}`,
      ]);
    await limit(true);
    try {
      // the plain reader likes what they see of the newest 150 (the limited author's leave every public list)
      const moderated = new Set(f.order.filter((e) => e.author === 5).map((e) => e.id));
      const liked = f.order.slice(0, 150).filter((e) => e.author !== 5).map((e) => e.id);
      sent.length = 0;
      for (const id of liked) {
        await setLike(app(), f.plain, id, true);
        await drain();
      }
      expect(await indexesOf(f.plain)).toEqual(["v"]);
      sent.length = 0;
      const maxRows = await hiderPages({ ...f, liked }, "plain reader, moderation on", f.plain, moderated);
      expect(sent.filter((c) => c.type === "viewer" && !c.touch)).toEqual([]);
      // a `b:` index of theirs (as an earlier build made while moderation counted): no page reads it,
      // and the repair pass drops it; their `v:` stays
      await drainQueue(app(), [{ type: "viewer", ruleKey: ruleKeyOf(f.rule), viewerId: f.plain, floor: null, hide: true, liked: true }]);
      expect(await indexesOf(f.plain)).toEqual(["b", "v"]);
      await repairIndexes(app(), app().db, Date.now());
      expect(await indexesOf(f.plain)).toEqual(["v"]);
      console.warn(`plain reader under moderation: v: made on like, every page full, max rows ${maxRows}`);
    } finally {
      await limit(false);
    }
  });
});
