// The feed index survives a crash (issue 27, "Nothing lost, nothing drifts"; decision 020): this
// file starts its own server on a fresh state dir, builds the indexes of 14 feeds (dense and
// sparse rules: tags, a tag with an exclusion, an all-of pair, authors, authors with a tag; two
// feeds sharing one index), then runs a storm of concurrent posts and deletes and kills the
// runtime's whole process group (SIGKILL) in the middle of it: the local queue's messages are
// lost, as they would be with a consumer that died. A few writes of the storm also lose their
// message on purpose (`X-Echo-Fault: stream`), so drift is certain whatever the kill's timing.
// After a restart on the same state dir and ONE scheduled pass, every feed read from its index
// equals the reference — the reference model (feed-rules.reference.ts) over the echos read
// straight from the D1 SQLite file, cross-checked with the engine's own page (POST
// /api/scroll/preview, which never reads an index) — and every acknowledged write survived.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script shared by the npm scripts, no type declarations
import { startServer } from "../../scripts/server.mjs";
import { referenceFeed, type FeedRule, type RefEcho } from "../../modules/scroll/index";
import { Client, d1Cost, uniqueName } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Server = { baseUrl: string; pid: number; stateDir: string; log: () => string; stop: () => Promise<void> };

const VARS = { AUTH_IP_LIMIT_PER_MINUTE: "100000", EXPOSE_D1_STATS: "1", FAULT_INJECTION: "1" };
const CRON = "*/5 * * * *";
/** Acknowledged storm operations after which the runtime is killed (the storm goes on meanwhile). */
const KILL_AFTER = 90;
/** Writes per lane at most (two of three are posts): with the pre-storm posts, each author stays
 * under the post limit, and every feed within the repair pass's depth (100 matches). */
const LANE_WRITES = 30;

const stateDir = mkdtempSync(".state-storm-");
let server: Server | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

/** The D1 database of the state dir, read directly (the server may be running: WAL). */
function store() {
  const dir = path.join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 file in ${dir}`);
  return new DatabaseSync(path.join(dir, file), { readOnly: true });
}

function storedEchos(): RefEcho[] {
  const db = store();
  try {
    const rows = db.prepare("SELECT id, author_id, tags, created_at, likes_count FROM echos").all() as Json[];
    return rows.map((r) => ({ id: r.id, authorId: r.author_id, tags: JSON.parse(r.tags), createdAt: r.created_at, likes: r.likes_count }));
  } finally {
    db.close();
  }
}

/** The entries of each feed's index (through the scroll's rule key), newest first, by scroll id. */
function storedEntries(): Map<string, string[]> {
  const db = store();
  try {
    const rows = db
      .prepare(
        `SELECT s.id AS scroll, ie.echo_id AS id FROM scrolls s JOIN feed_indexes fi ON fi.rule_key = s.rule_key
         JOIN feed_index_entries ie ON ie.index_id = fi.id ORDER BY ie.echo_id DESC`,
      )
      .all() as Json[];
    const byScroll = new Map<string, string[]>();
    for (const r of rows) byScroll.set(r.scroll, [...(byScroll.get(r.scroll) ?? []), r.id]);
    return byScroll;
  } finally {
    db.close();
  }
}

/** A small deterministic random source (the storm is the same every run; only its cut differs). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type FeedSpec = { name: string; config: Json };
/** A rule as the reference model takes it (every feed here is newest first, with no dates). */
const rule = (config: Json): FeedRule => ({
  tagMatchType: config.tagMatchType ?? "any",
  includedTags: config.includedTags ?? [],
  excludedTags: config.excludedTags ?? [],
  authors: config.authors ?? [],
  sortBy: "newestFirst",
  sortTimeRange: "allTime",
  excludeLikedEchos: false,
  startDate: null,
  endDate: null,
});

/** A feed's every echo, paged by cursor as the app does (20 a page). */
async function feedIds(client: Client, scrollId: string) {
  const ids: string[] = [];
  const states = new Set<string>();
  let cursor = "";
  for (let page = 0; page < 20; page++) {
    const res = await client.get(`/api/scroll/${scrollId}/echos?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, res.text).toBe(200);
    expect(d1Cost(res).rows).toBeLessThanOrEqual(200);
    expect(d1Cost(res).roundTrips).toBeLessThanOrEqual(2);
    states.add(res.json.feedIndex);
    ids.push(...(res.json.echos as Json[]).map((e) => e._id));
    if (!res.json.pagination.hasMore) return { ids, states: [...states] };
    cursor = res.json.pagination.nextCursor;
  }
  throw new Error(`feed ${scrollId} did not end within 20 pages`);
}

describe("the feed index after a crash in a write storm", () => {
  it("every feed equals the reference after one repair pass, and every acknowledged write survived", async () => {
    const started = Date.now();
    const phases: string[] = [];
    let mark = started;
    const phase = (name: string) => {
      phases.push(`${name} ${((Date.now() - mark) / 1000).toFixed(1)} s`);
      mark = Date.now();
    };
    server = (await startServer({ stateDir, vars: VARS })) as Server;
    let base = server.baseUrl;
    phase("start");
    const users: { client: Client; id: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const client = new Client(base);
      const res = await client.post("/api/auth/signup", { userName: uniqueName(`st${i}`), password: "pass1234" });
      expect(res.status).toBe(201);
      users.push({ client, id: res.json._id });
    }
    const [a, b, c, d, x] = ["alpha", "bravo", "charlie", "delta", "xray"];
    const u = users.map((x) => x.id);
    const specs: FeedSpec[] = [
      { name: "Alpha", config: { includedTags: [a] } },
      { name: "Bravo", config: { includedTags: [b] } },
      { name: "Alpha or bravo", config: { includedTags: [a, b] } },
      { name: "Alpha, no xray", config: { includedTags: [a], excludedTags: [x] } },
      { name: "Alpha and charlie", config: { tagMatchType: "all", includedTags: [a, c] } },
      { name: "Bravo and xray", config: { tagMatchType: "all", includedTags: [b, x] } },
      { name: "Charlie, no alpha", config: { includedTags: [c], excludedTags: [a] } },
      { name: "Delta", config: { includedTags: [d] } },
      { name: "Charlie or delta, no bravo", config: { includedTags: [c, d], excludedTags: [b] } },
      { name: "One author", config: { authors: [u[1]] } },
      { name: "Another author", config: { authors: [u[0]] } },
      { name: "An author on bravo", config: { authors: [u[2]], includedTags: [b] } },
      { name: "Two authors on charlie, no xray", config: { authors: [u[3], u[4]], includedTags: [c], excludedTags: [x] } },
      // the same rule as "Alpha, no xray", by another user: one index for both
      { name: "Alpha, no xray (again)", config: { includedTags: [a], excludedTags: [x] } },
    ];
    const feeds: { id: string; owner: number; rule: FeedRule; spec: FeedSpec }[] = [];
    for (const [i, spec] of specs.entries()) {
      // the repeated rule's owner is not the first one's
      const owner = i === specs.length - 1 ? 4 : i % users.length;
      const res = await users[owner]!.client.post("/api/scroll/create", { name: spec.name, type: "feed", feedConfig: spec.config });
      expect(res.status, res.text).toBe(201);
      feeds.push({ id: res.json.scroll._id, owner, rule: rule(spec.config), spec });
    }
    const ownerOf = (feed: (typeof feeds)[number]) => users[feed.owner]!.client;

    // Each author's own echos (for deletes); what was acknowledged.
    const rand = random(27);
    const tagsFor = (r: () => number) => {
      const tags = [a, b, c, d, x, "noise"].filter((_, i) => r() < [0.3, 0.3, 0.3, 0.2, 0.25, 0.3][i]!);
      return tags.length > 0 ? tags : ["noise"];
    };
    const own: string[][] = users.map(() => []);
    const posted = new Set<string>();
    const deleted = new Set<string>();
    // posts whose change-stream message the fault dropped
    const faulted = new Set<string>();
    // deletes sent: one the kill cut off may or may not have committed
    const doomed = new Set<string>();
    await Promise.all(
      users.map(async (user, who) => {
        for (let i = 0; i < 10; i++) {
          const res = await user.client.post("/api/echo/post", { content: `before ${who}.${i}`, tags: tagsFor(rand) });
          expect(res.status).toBe(201);
          own[who]!.push(res.json.echo._id);
          posted.add(res.json.echo._id);
        }
      }),
    );
    // every index is built (its backfill done) before the storm
    const deadline = Date.now() + 30_000;
    for (const feed of feeds) {
      for (;;) {
        const res = await ownerOf(feed).get(`/api/scroll/${feed.id}/echos?limit=20`);
        if (res.json?.feedIndex === "ready") break;
        if (Date.now() > deadline) throw new Error(`the index of "${feed.spec.name}" was not built in time: ${res.text.slice(0, 300)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }

    // The storm: two lanes per user posting and deleting their own echos in parallel; the runtime
    // is killed once KILL_AFTER operations were acknowledged, with requests in flight.
    const edits = [
      { feed: "Delta", config: { includedTags: [d], excludedTags: [x] }, who: feeds[7]!.owner, lane: 1, at: 3 },
      { feed: "Charlie, no alpha", config: { includedTags: [c], excludedTags: [a, b] }, who: feeds[6]!.owner, lane: 1, at: 4 },
    ];
    let acked = 0;
    let killed = false;
    let killedAt = 0;
    const lane = async (who: number, laneNo: number) => {
      const r = random(1000 + who * 10 + laneNo);
      const client = users[who]!.client;
      for (let i = 0; i < LANE_WRITES && !killed; i++) {
        // every 5th write of a lane loses its change-stream message (fault injection)
        const lost = i % 5 === 4 ? { "X-Echo-Fault": "stream" } : undefined;
        try {
          const edit = edits.find((e) => e.who === who && e.lane === laneNo && e.at === i);
          if (edit) {
            // a rule edited mid-storm: a new index to build (its backfill message lost, for one)
            const feed = feeds.find((f) => f.spec.name === edit.feed)!;
            const res = await client.request("PATCH", `/api/scroll/${feed.id}`, { feedConfig: edit.config }, lost);
            expect(res.status, res.text).toBe(200);
          } else if (i % 3 === 2 && own[who]!.length > 0) {
            const victim = own[who]!.splice(Math.floor(r() * own[who]!.length), 1)[0]!;
            doomed.add(victim);
            const res = await client.delete(`/api/echo/delete/${victim}`, lost);
            if (res.status === 200) deleted.add(victim);
          } else {
            const res = await client.post("/api/echo/post", { content: `storm ${who}.${laneNo}.${i}`, tags: tagsFor(r) }, lost);
            if (res.status === 201) {
              own[who]!.push(res.json.echo._id);
              posted.add(res.json.echo._id);
              if (lost) faulted.add(res.json.echo._id);
            }
          }
          acked++;
        } catch {
          return; // the runtime is gone: this lane's last request was never answered
        }
        if (acked >= KILL_AFTER && !killed) {
          killed = true;
          killedAt = acked;
          process.kill(-server!.pid, "SIGKILL");
        }
      }
    };
    phase("setup");
    await Promise.all(users.flatMap((_, who) => [lane(who, 0), lane(who, 1)]));
    phase("storm");
    expect(killed, "the storm was cut by the kill").toBe(true);

    // Restart on the same state dir (migrated already): the queue's messages are gone.
    server = (await startServer({ stateDir, vars: VARS, migrate: false })) as Server;
    base = server.baseUrl;
    phase("restart");
    for (const user of users) {
      const moved = new Client(base);
      moved.cookie = user.client.cookie;
      user.client = moved;
    }

    // every acknowledged write survived the kill
    const echos = storedEchos();
    const stored = new Set(echos.map((e) => e.id));
    const missing = [...posted].filter((id) => !doomed.has(id) && !stored.has(id));
    const undeleted = [...deleted].filter((id) => stored.has(id));
    expect(missing, "acknowledged posts missing after the restart").toEqual([]);
    expect(undeleted, "acknowledged deletes undone by the restart").toEqual([]);

    // each feed's rule as the store holds it (an edit cut off by the kill may or may not have committed)
    for (const feed of feeds) {
      const res = await ownerOf(feed).get(`/api/scroll/${feed.id}`);
      expect(res.status, res.text).toBe(200);
      const config = res.json.scroll.feedConfig as Json;
      const names = (list: Json[]) => list.map((t) => t.name as string);
      feed.rule = rule({ tagMatchType: config.tagMatchType, includedTags: names(config.includedTags), excludedTags: names(config.excludedTags), authors: (config.authors as Json[]).map((u) => u._id) });
      feed.spec = { ...feed.spec, config: { tagMatchType: config.tagMatchType, includedTags: feed.rule.includedTags, excludedTags: feed.rule.excludedTags, authors: feed.rule.authors } };
    }
    const edited = edits.map((e) => feeds.find((f) => f.spec.name === e.feed)!);
    const now = Date.now();
    const reference = (f: (typeof feeds)[number]) => referenceFeed(f.rule, echos, [], "", now);
    for (const f of feeds) expect(reference(f).length, `"${f.spec.name}" stays within the repair depth`).toBeLessThanOrEqual(100);
    const drifted: string[] = [];
    // matches missing from the pages: those whose message the fault dropped, and the others (the kill's)
    const missed = { faulted: 0, killed: 0 };
    for (const feed of feeds) {
      const { ids } = await feedIds(ownerOf(feed), feed.id);
      if (JSON.stringify(ids) !== JSON.stringify(reference(feed))) drifted.push(feed.spec.name);
      for (const id of reference(feed).filter((m) => !ids.includes(m))) missed[faulted.has(id) ? "faulted" : "killed"]++;
    }
    // the lost messages left feeds behind the store (otherwise this test shows nothing)
    expect(drifted.length, "feeds drifted before the repair").toBeGreaterThan(0);

    // ONE scheduled pass
    const pass = await fetch(`${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(CRON)}`);
    expect(pass.status).toBe(200);

    const entries = storedEntries();
    const wrong: string[] = [];
    const indexStates: string[] = [];
    for (const feed of feeds) {
      const expected = reference(feed);
      const { ids, states } = await feedIds(ownerOf(feed), feed.id);
      indexStates.push(`${feed.spec.name}: ${states.join("/")}`);
      // an index whose backfill was cut (a rule edited mid-storm) may still be building: its
      // pages come from the engine meanwhile; every other feed reads its index
      if (!edited.includes(feed)) expect(states, `"${feed.spec.name}" is read from its index`).toEqual(["ready"]);
      if (JSON.stringify(ids) !== JSON.stringify(expected)) wrong.push(`${feed.spec.name}: its pages have ${ids.length} echos, the reference ${expected.length}`);
      // the index itself holds exactly the feed's matches: no entry lost, none left of a deleted echo
      const held = entries.get(feed.id) ?? [];
      if (states.includes("ready") && JSON.stringify(held) !== JSON.stringify(expected)) wrong.push(`${feed.spec.name}: its index holds ${held.length} entries, the reference ${expected.length}`);
      // the engine (which never reads an index) agrees with the reference model
      const preview = await ownerOf(feed).post("/api/scroll/preview", { feedConfig: feed.spec.config });
      expect(preview.status, preview.text).toBe(200);
      const engine = (preview.json.echos as Json[]).map((e) => e._id);
      expect(expected.slice(0, engine.length), `"${feed.spec.name}": the engine's first page`).toEqual(engine);
    }
    phase("checks");
    expect(wrong, `feeds not equal to the reference after one pass (drifted before it: ${drifted.join(", ")})`).toEqual([]);
    console.warn(
      `storm: killed after ${killedAt} acknowledged writes (${posted.size} posts, ${deleted.size} deletes acknowledged, ${echos.length} echos stored); ` +
        `${drifted.length} of ${feeds.length} feeds drifted (matches missing: ${missed.killed} lost to the kill, ${missed.faulted} to the fault), all equal after one pass; ${phases.join(", ")}; ${((Date.now() - started) / 1000).toFixed(1)} s in all; edited: ${indexStates.filter((t) => edited.some((f) => t.startsWith(f.spec.name))).join(", ")}`,
    );
  }, 600_000);

  // Depth (issue 27, "nothing drifts"; decision 020's repair pass): the check compares an index
  // with the engine over its first 100 matches only, so a post whose message was lost and that
  // 100 newer matches bury before the next pass was never repaired. The pass's replay of the
  // posts since the pass before finds it at any depth.
  it("a lost post buried under 100 newer matches before the pass is found by the pass (the replay)", async () => {
    // the storm's restarted server (or one of its own, when run alone)
    server ??= (await startServer({ stateDir, vars: VARS })) as Server;
    const base = server.baseUrl;
    const tag = "buried";
    const authors: Client[] = [];
    for (let i = 0; i < 2; i++) {
      const client = new Client(base);
      expect((await client.post("/api/auth/signup", { userName: uniqueName(`sb${i}`), password: "pass1234" })).status).toBe(201);
      authors.push(client);
    }
    const feed = (await authors[0]!.post("/api/scroll/create", { name: "Buried", type: "feed", feedConfig: { includedTags: [tag] } })).json.scroll;
    const all = async () => {
      const ids: string[] = [];
      let cursor = "";
      for (;;) {
        const res = await authors[0]!.get(`/api/scroll/${feed._id}/echos?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(res.status, res.text).toBe(200);
        ids.push(...(res.json.echos as Json[]).map((e) => e._id));
        if (!res.json.pagination.hasMore) return { ids, state: res.json.feedIndex as string };
        cursor = res.json.pagination.nextCursor;
      }
    };
    const deadline = Date.now() + 20_000;
    while ((await all()).state !== "ready") {
      if (Date.now() > deadline) throw new Error("the index was not built in time");
      await new Promise((r) => setTimeout(r, 200));
    }
    const lost = (await authors[0]!.post("/api/echo/post", { content: "lost", tags: [tag] }, { "X-Echo-Fault": "stream" })).json.echo._id as string;
    let newest = "";
    for (let i = 0; i < 100; i++) newest = (await authors[i % 2]!.post("/api/echo/post", { content: `newer ${i}`, tags: [tag] })).json.echo._id;
    while (!(await all()).ids.includes(newest)) {
      if (Date.now() > deadline + 20_000) throw new Error("the newer posts did not reach the index");
      await new Promise((r) => setTimeout(r, 200));
    }
    // the replay leaves the stream's last 10 s to the stream
    await new Promise((r) => setTimeout(r, 10_500));
    expect((await fetch(`${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(CRON)}`)).status).toBe(200);
    const stored = storedEchos().filter((e) => e.tags.includes(tag));
    expect(stored.map((e) => e.id)).toContain(lost);
    const { ids, state } = await all();
    expect(state).toBe("ready");
    expect(ids).toHaveLength(101);
    expect(ids).toEqual(stored.map((e) => e.id).sort().reverse());
  }, 600_000);
});
