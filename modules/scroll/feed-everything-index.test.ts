// Feeds of everything, indexed (issue 32, decision 033, "Feeds of everything, indexed"): a newest-
// or oldest-first rule with no tag, author or exclusion had no index (it read the echos table in
// its own order), so a heavy hider — blocking 8 of 10 authors and muting two words common among
// the rest: ~85 % hidden — got short pages forever and no hiding index could be made of it. Now
// it has an index under the `*` term, so their short page asks for their hiding index (`h:`, or
// `b:` for a hide-liked feed), the queue's consumer builds it, and every page by cursor and by
// number is full, each visible echo once in order, ≤ 2 round trips, ≤ 200 rows. A reader who hides
// nothing still reads the engine (no viewer index, pages full). A new post reaches the index and
// the hider's index through the consumer; a feed an older build saved with no key (`rule_key = ''`)
// is keyed by migration 0040 and the repair pass builds its index.
// Real D1, the real consumer run between pages as it runs beside them.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { postEcho } from "../echo/index.server";
import { newId } from "../shared/index";
import { batch, select, sql, testAppContext } from "../shared/index.server";
import { baseRule, drainQueue, keptQueue, measured, pageBothWays, viewerIndexState } from "./depth-paging.test-support";
import { repairIndexes } from "./feed-index-repair.server";
import { ruleKeyOf, ruleOfConfig } from "./rule.server";
import { createScroll } from "./writes.server";
import { blockFor, muteWordFor, shortPages, writeHiderEchos, type HiderEcho } from "./hider-echos.test-support";
import { feedScroll } from "./thin-matches.test-support";
import type { FeedConfigInput, FeedRule } from "./schema";
import type { ViewerKind } from "./feed-viewer-index.server";

const { env: queued, sent } = keptQueue(env);
const app = () => testAppContext(queued);
const ECHOS = 700;
const START = Date.now() - 10_000_000;
const drain = () => drainQueue(app(), sent);

// the file's echos (every echo of its store: a feed of everything matches them all)
let data: { authors: string[]; echos: HiderEcho[] } | null = null;
async function echos() {
  data ??= await writeHiderEchos(app(), "everything", "ev", "ev_a", ECHOS, (i) => [...(i % 8 === 1 ? ["alpha"] : []), ...(i % 8 === 5 ? ["beta"] : [])], START);
  return data;
}
const BLOCKED = new Set([0, 1, 2, 3, 4, 5, 6, 7]);
const WORDS = ["alpha", "beta"];
const seen = (e: HiderEcho) => !BLOCKED.has(e.author) && !e.words.some((w) => WORDS.includes(w));

/** A hider (decision 026): 8 of the 10 authors blocked, two words muted (their `hiding` messages drained). */
async function hider(name: string) {
  const { authors } = await echos();
  const viewer = (await signup(app(), { userName: name, password: "pass1234" })).user._id;
  for (const a of BLOCKED) await blockFor(app(), sent, viewer, authors[a]!, true);
  for (const phrase of WORDS) await muteWordFor(app(), sent, viewer, phrase);
  return viewer;
}

const config = (rule: Partial<FeedRule>, range: { start: number; end: number } | null = null): FeedConfigInput => ({
  tagMatchType: "any",
  includedTags: [],
  excludedTags: [],
  authors: [],
  sortBy: rule.sortBy ?? "newestFirst",
  sortTimeRange: "allTime",
  excludeLikedEchos: rule.excludeLikedEchos ?? false,
  replies: false,
  dateRange: range ? { startDate: new Date(range.start).toISOString(), endDate: new Date(range.end).toISOString() } : null,
});

/** A feed of `feedConfig` saved through the app (its index made by the queue, as a store's). */
async function everythingScroll(viewer: string, feedConfig: FeedConfigInput) {
  const scroll = await createScroll(app(), viewer, { type: "feed", name: "everything", description: "", isPrivate: false, feedConfig });
  await drain();
  return { scrollId: scroll._id, rule: ruleOfConfig(feedConfig) };
}

const inOrder = (rule: FeedRule, list: HiderEcho[]) => [...list].sort((a, b) => (a.id < b.id ? 1 : -1) * (rule.sortBy === "oldestFirst" ? -1 : 1));

// the hider's first reading of the feed: short pages that ask; the queue builds their index; then
// every page full both ways — what failed before (no index, so no hiding index: short forever)
async function hiderReads(label: string, viewer: string, scrollId: string, rule: FeedRule, expected: string[], kind: ViewerKind) {
  sent.length = 0;
  const short = await shortPages(queued, viewer, scrollId);
  expect(short, `${label}: short pages before the hiding index`).toBeGreaterThan(0);
  expect(sent.some((c) => c.type === "viewer" && c.viewerId === viewer && c.hide), `${label}: a short page asks`).toBe(true);
  await drain();
  expect(await viewerIndexState(app(), ruleKeyOf(rule), viewer, kind)).toMatchObject({ complete: 1, entries: expected.length });
  const maxRows = await pageBothWays({ env: queued, viewerId: viewer, scrollId, expected, label, afterPage: async () => void (await drain()) });
  console.warn(`feed of everything, ${label}: ${expected.length} visible of ${ECHOS}, ${short} short pages before the index, max rows a page ${maxRows}`);
  return maxRows;
}

describe("feeds of everything, indexed: a heavy hider's pages full", { timeout: 600_000 }, () => {
  let newest: { scrollId: string; rule: FeedRule; viewer: string } | null = null;

  for (const sortBy of ["newestFirst", "oldestFirst"] as const) {
    it(`${sortBy}, ~85 % hidden: the short page asks, the hiding index is built, every page full`, async () => {
      const { echos: all } = await echos();
      const viewer = await hider(`ev_h_${sortBy}`);
      const { scrollId, rule } = await everythingScroll(viewer, config({ sortBy }));
      const expected = inOrder(rule, all.filter(seen)).map((e) => e.id);
      expect(expected.length / ECHOS).toBeLessThanOrEqual(0.15);
      await hiderReads(sortBy, viewer, scrollId, rule, expected, "h");
      if (sortBy === "newestFirst") newest = { scrollId, rule, viewer };
    });
  }

  it("a date range (newest first): only its echos, every page full", async () => {
    const { echos: all } = await echos();
    const viewer = await hider("ev_h_dated");
    const range = { start: START + 150_000, end: START + 599_000 };
    const { scrollId, rule } = await everythingScroll(viewer, config({}, range));
    const within = (e: HiderEcho) => e.id >= all[150]!.id && e.id <= all[599]!.id;
    const expected = inOrder(rule, all.filter((e) => seen(e) && within(e))).map((e) => e.id);
    expect(expected.length).toBeGreaterThan(60);
    await hiderReads("date range", viewer, scrollId, rule, expected, "h");
  });

  it("hide liked (the `b:` kind): what they liked and what they hide left out, every page full", async () => {
    const { echos: all } = await echos();
    const viewer = await hider("ev_h_liked");
    // they liked a third of what they see (before the index, as a store's likes)
    const liked = new Set(all.filter((e, i) => seen(e) && i % 3 === 0).map((e) => e.id));
    await batch(app().db, [...[...liked].map((id) => sql`INSERT INTO likes (echo_id, user_id, created_at) VALUES (${id}, ${viewer}, 0)`)]);
    await drain();
    const { scrollId, rule } = await everythingScroll(viewer, config({ excludeLikedEchos: true }));
    const expected = inOrder(rule, all.filter((e) => seen(e) && !liked.has(e.id))).map((e) => e.id);
    expect(expected.length / ECHOS).toBeLessThanOrEqual(0.1);
    await hiderReads("hide liked", viewer, scrollId, rule, expected, "b");
  });

  it("a reader who hides nothing reads the engine, unchanged: every page full, no viewer index", async () => {
    const { echos: all } = await echos();
    const plain = (await signup(app(), { userName: "ev_plain", password: "pass1234" })).user._id;
    const { scrollId, rule } = await everythingScroll(plain, config({}));
    sent.length = 0;
    const maxRows = await pageBothWays({ env: queued, viewerId: plain, scrollId, expected: inOrder(rule, all).map((e) => e.id), label: "plain reader" });
    expect(sent.filter((c) => c.type === "viewer")).toEqual([]);
    for (const kind of ["v", "h", "b"] as const) expect(await viewerIndexState(app(), ruleKeyOf(rule), plain, kind)).toBeUndefined();
    console.warn(`feed of everything, a reader who hides nothing: ${ECHOS} echos, max rows a page ${maxRows}`);
  });

  it("a new post reaches the feed's index and the hider's (the consumer), and their first page", async () => {
    const { authors } = await echos();
    const { scrollId, rule, viewer } = newest!;
    const fresh = await postEcho(app(), authors[9]!, { content: "a fresh echo for everyone", tags: [] });
    const hidden = await postEcho(app(), authors[0]!, { content: "a fresh echo from a blocked author", tags: [] });
    await drain();
    const entries = await batch(app().db, [
      select(
        { key: sql<string>`fi.rule_key`, echoId: sql<string>`ie.echo_id` },
        sql`FROM feed_index_entries ie JOIN feed_indexes fi ON fi.id = ie.index_id WHERE ie.echo_id IN (${fresh._id}, ${hidden._id})`,
      ),
    ]);
    const shared = ruleKeyOf(rule);
    const where = (id: string) => entries[0].filter((r) => r.echoId === id).map((r) => r.key);
    expect(where(fresh._id)).toEqual(expect.arrayContaining([shared, `h:${viewer}:${shared}`]));
    expect(where(hidden._id)).toContain(shared);
    expect(where(hidden._id)).not.toContain(`h:${viewer}:${shared}`);
    const { got, stats } = await measured(queued, viewer, scrollId, 1, undefined);
    expect(got.echos[0]?._id).toBe(fresh._id);
    expect(got.echos.map((e) => e._id)).not.toContain(hidden._id);
    expect(got.echos.length).toBe(20);
    expect(stats.roundTrips).toBeLessThanOrEqual(2);
  });

  it("a feed saved with no key (an older build's `''`): migration 0040 clears it, the repair pass builds its index", async () => {
    await echos();
    const owner = (await signup(app(), { userName: "ev_old", password: "pass1234" })).user._id;
    const rule: FeedRule = { ...baseRule, sortBy: "oldestFirst", startDate: START + 300_000, endDate: null };
    const id = newId(Date.now());
    await batch(app().db, [feedScroll(id, owner, rule, "")]);
    const migration = (queued as unknown as { TEST_MIGRATIONS: { name: string; queries: string[] }[] }).TEST_MIGRATIONS.find((m) => m.name.startsWith("0040_"));
    expect(migration, "migration 0040").toBeDefined();
    for (const q of migration!.queries) await env.DB.prepare(q).run();
    const key = async () => (await batch(app().db, [select({ key: sql<string | null>`rule_key` }, sql`FROM scrolls WHERE id = ${id}`)]))[0][0]?.key;
    expect(await key()).toBeNull();
    sent.length = 0;
    const done = await repairIndexes(app(), app().db);
    expect(done.keyed).toBeGreaterThanOrEqual(1);
    expect(await key()).toBe(ruleKeyOf(rule));
    await drain();
    const [state] = await batch(app().db, [
      select(
        { state: sql<string>`state`, complete: sql<number>`complete`, entries: sql<number>`(SELECT count(*) FROM feed_index_entries WHERE index_id = feed_indexes.id)` },
        sql`FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)}`,
      ),
    ]);
    // every echo from its start: the file's echos 300 on, and the two posted above
    expect(state[0]).toMatchObject({ state: "ready", complete: 1, entries: ECHOS - 300 + 2 });
  });
});
