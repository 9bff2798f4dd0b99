// Lost like messages (decision 020, "Nothing lost"): a like's count moved but its message never
// reached the consumer, deep in a most-liked index where the check (its first 100 matches) does
// not look; an unlike lost at the top; a delete lost. The repair pass's rank sweep finds each
// entry out of step with its echo and sends it through the consumer again: the index's order is
// the engine's again after one pass (the check is off here, so the sweep alone must do it).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { batch, sql, testAppContext } from "../shared/index.server";
import { INDEX_CAP, indexStatements } from "./feed-index.server";
import { indexPage, indexPageQuery } from "./feed-index-pages.server";
import { repairIndexes } from "./feed-index-repair.server";
import { ruleKeyOf } from "./rule.server";
import { newId } from "../shared/index";
import { feedScroll, thinRule, writeThinMatches } from "./thin-matches.test-support";

const app = () => testAppContext(env);
const byLikes = (list: { id: string; likes: number }[]) => [...list].sort((a, b) => b.likes - a.likes || (a.id < b.id ? 1 : -1));

/**
 * A most-liked index of 150 matches, ready, read by a scroll: all of them (complete) or, with
 * `cap`, its first `cap` entries with the frontier at the last one kept.
 */
async function mostLikedIndex(name: string, age: number, cap?: number) {
  const me = (await signup(app(), { userName: name, password: "pass1234" })).user._id;
  const matches = await writeThinMatches(app(), me, name, 150, Date.now() - age);
  const rule = thinRule(name, "mostLiked");
  const inOrder = byLikes(matches);
  const kept = cap ? inOrder.slice(0, cap) : inOrder;
  const floor = kept[kept.length - 1]!;
  const key = ruleKeyOf(rule);
  await batch(app().db, [
    ...indexStatements(rule, sql`1`),
    ...kept.map((m) => sql`INSERT INTO feed_index_entries (index_id, rank, echo_id) SELECT id, ${m.likes}, ${m.id} FROM feed_indexes WHERE rule_key = ${key}`),
    cap
      ? // its frontier where a full index's would be (cap: INDEX_CAP; a smaller one is an older
        // build's, which the pass builds again)
        sql`UPDATE feed_indexes SET state = 'ready', complete = 0, cap = ${INDEX_CAP}, floor = ${floor.id}, floor_rank = ${floor.likes} WHERE rule_key = ${key}`
      : sql`UPDATE feed_indexes SET state = 'ready', complete = 1, cap = 10000 WHERE rule_key = ${key}`,
    // a scroll reads it (the pass drops indexes none reads)
    feedScroll(newId(Date.now()), me, rule, key),
  ]);
  return { me, matches, rule, inOrder, floor };
}

describe("the repair pass's rank sweep", () => {
  it("puts echos whose like messages were lost back in their place, and removes one deleted", async () => {
    const { me, matches, rule, inOrder } = await mostLikedIndex("sweep", 10_000_000);
    // counts moved as the likes triggers move them, and no message came: deep ones gained likes
    // (still below the first 100), the top one lost all of its; one echo deleted
    const moved = new Map<string, number>([
      [inOrder[140]!.id, inOrder[110]!.likes + 1],
      [inOrder[130]!.id, inOrder[105]!.likes + 1],
      [inOrder[0]!.id, 0],
    ]);
    const gone = inOrder[120]!.id;
    await batch(app().db, [
      ...[...moved].flatMap(([id, likes]) => [
        sql`UPDATE echos SET likes_count = ${likes} WHERE id = ${id}`,
        sql`UPDATE echo_tags SET likes_count = ${likes} WHERE echo_id = ${id}`,
      ]),
      sql`DELETE FROM echos WHERE id = ${gone}`,
    ]);
    const now = matches.map((m) => ({ ...m, likes: moved.get(m.id) ?? m.likes })).filter((m) => m.id !== gone);
    const expected = byLikes(now).map((m) => m.id);
    const indexed = async () => {
      const [rows] = await batch(app().db, [indexPageQuery(rule, me, null, 500)]);
      return indexPage(rule, rows, 500, { complete: true, floor: null }).rows.map((r) => r.id);
    };
    expect(await indexed()).not.toEqual(expected);
    // one pass, no index checked (indexes 0) and no feed keyed: only the sweep (and the replay)
    const done = await repairIndexes(app(), app().db, Date.now(), 0, 0);
    expect(await indexed()).toEqual(expected);
    expect(done.swept).toBe(150);
    expect(done.resynced).toBe(4);
    // the next pass finds nothing out of step
    expect((await repairIndexes(app(), app().db, Date.now(), 0, 0)).resynced).toBe(0);
  });

  it("lifts into a capped index an echo whose like message was lost and that the index does not hold yet", async () => {
    // a capped index: its first 30 entries, the frontier at the 30th
    const { me, rule, inOrder, floor } = await mostLikedIndex("lift", 20_000_000, 30);
    // an echo below the frontier gains likes enough to stand first; its message is lost
    const deep = inOrder[120]!;
    const top = inOrder[0]!.likes + 5;
    await batch(app().db, [
      sql`UPDATE echos SET likes_count = ${top - 1} WHERE id = ${deep.id}`,
      sql`UPDATE echo_tags SET likes_count = ${top - 1} WHERE echo_id = ${deep.id}`,
      // the last of them a real like: its triggers count it and note the echo for the ranking pass
      sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${deep.id}, ${me}, ${Date.now()})`,
    ]);
    const held = async () => {
      const [rows] = await batch(app().db, [sql`SELECT echo_id AS id, rank FROM feed_index_entries WHERE echo_id = ${deep.id}`]);
      return rows as { id: string; rank: number }[];
    };
    // the sweep walks the entries the index holds: it cannot find it (check off, nothing relayed)
    await repairIndexes(app(), app().db, Date.now(), 0, 0);
    expect(await held()).toEqual([]);
    // the ranking pass's change log names it (the cron hands the pass's echos to the repair pass:
    // verticals/scheduled.ts)
    const [noted] = await batch(app().db, [sql`SELECT substr(key, 3) AS id FROM rank_dirty WHERE key LIKE 'e:%'`]);
    const liked = (noted as { id: string }[]).map((r) => r.id);
    expect(liked).toContain(deep.id);
    const done = await repairIndexes(app(), app().db, Date.now(), 0, 0, liked);
    expect(done.relayed).toBeGreaterThanOrEqual(1);
    expect(await held()).toEqual([{ id: deep.id, rank: top }]);
    const [rows] = await batch(app().db, [indexPageQuery(rule, me, null, 20)]);
    expect(indexPage(rule, rows, 20, { complete: false, floor: { rank: floor.likes, id: floor.id } }).rows[0]?.id).toBe(deep.id);
  });
});
