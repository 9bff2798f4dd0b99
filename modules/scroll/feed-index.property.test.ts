// Property test: the feed index (decision 020), kept from a random stream of posts, deletes and
// rule edits — with messages delivered twice and some lost, then the repair pass — holds exactly
// the reference model's feed (membership and order), in real D1 inside workerd.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newId } from "../shared/index";
import { batch, sql, testAppContext, type Change, type ChangedEcho, type SQL } from "../shared/index.server";
import { backfillStep, consumeChanges, indexStatements, INDEX_CAP, repairIndexes, ruleKeyOf } from "./feed-index.server";
import { referenceFeed, type RefEcho } from "./feed-rules.reference";
import type { FeedRule } from "./schema";
import { DAY, feedRuleArb } from "../../tests/feed-rule-arbitrary";

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const VOCAB = ["tech", "life", "art", "food", "café", "日本", "tech-news", "a_i"];
const USER_COUNT = 3;

/** An indexable rule: newest first, driven by tags or authors. */
const indexableRule = (users: string[]) =>
  feedRuleArb({ vocab: VOCAB, users, nobody: newId(1), now: NOW }).map(({ viewer: _viewer, ...rule }): FeedRule => {
    const driven = rule.includedTags.length > 0 || rule.authors.length > 0 ? rule : { ...rule, includedTags: [VOCAB[0]!] };
    return { ...driven, sortBy: "newestFirst", sortTimeRange: "allTime" };
  });

type Op =
  | { kind: "post"; author: number; tags: string[]; age: number; delivery: "once" | "twice" | "lost" }
  | { kind: "delete"; pick: number; delivery: "once" | "twice" | "lost" }
  | { kind: "edit"; rule: FeedRule };

const opArb = (users: string[]): fc.Arbitrary<Op> => {
  const delivery = fc.constantFrom("once" as const, "once" as const, "once" as const, "twice" as const, "lost" as const);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant("post" as const),
        author: fc.integer({ min: 0, max: USER_COUNT - 1 }),
        tags: fc.uniqueArray(fc.constantFrom(...VOCAB), { maxLength: 4 }),
        age: fc.oneof(fc.integer({ min: 0, max: 2 * 365 * DAY }), fc.integer({ min: 0, max: DAY })),
        delivery,
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat(), delivery }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("edit" as const), rule: indexableRule(users) }) },
  );
};

const users = Array.from({ length: USER_COUNT }, (_, i) => newId(NOW - 10 * 365 * DAY + i));

async function reset() {
  const app = testAppContext(env);
  const statements: SQL[] = [
    sql`DELETE FROM feed_index_entries`,
    sql`DELETE FROM feed_rule_terms`,
    sql`DELETE FROM feed_indexes`,
    sql`DELETE FROM users`,
  ];
  users.forEach((id, i) => statements.push(sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES (${id}, ${"ix" + i + id.slice(-4)}, 'x', 0)`));
  // one feed scroll whose rule the test edits (the repair pass drops indexes no scroll reads)
  statements.push(sql`INSERT INTO scrolls (id, creator_id, name, type, created_at) VALUES (${newId(NOW)}, ${users[0]!}, 'p', 'feed', 0)`);
  await batch(app.db, statements);
}

/** Save the rule on the scroll and build its index, as create/edit and the backfill messages do. */
async function saveRule(rule: FeedRule) {
  const app = testAppContext(env);
  await batch(app.db, [sql`UPDATE scrolls SET rule_key = ${ruleKeyOf(rule)}`, ...indexStatements(rule, sql`1`, NOW)]);
  for (let step = 0; step < 100 && (await backfillStep(app.db, ruleKeyOf(rule), NOW)); step++);
}

/** The index's entries of the rule that still name an echo, newest first (what a page reads). */
async function indexed(rule: FeedRule): Promise<string[]> {
  const app = testAppContext(env);
  const [rows] = await batch(app.db, [
    sql`SELECT ie.echo_id AS id FROM feed_index_entries ie JOIN echos e ON e.id = ie.echo_id
        WHERE ie.index_id = (SELECT id FROM feed_indexes WHERE rule_key = ${ruleKeyOf(rule)} AND state = 'ready')
        ORDER BY ie.echo_id DESC`,
  ]);
  return (rows as { id: string }[]).map((r) => r.id);
}

describe("the feed index equals the reference after random streams", () => {
  it("posts, deletes and rule edits, messages doubled and lost, then one repair pass", async () => {
    let serial = 0;
    await fc.assert(
      fc.asyncProperty(indexableRule(users), fc.array(opArb(users), { minLength: 1, maxLength: 30 }), async (first, ops) => {
        await reset();
        const app = testAppContext(env);
        const echos: RefEcho[] = [];
        let rule = first;
        let lost = false;
        await saveRule(rule);
        for (const op of ops) {
          if (op.kind === "edit") {
            rule = op.rule;
            await saveRule(rule);
            continue;
          }
          let change: Change;
          if (op.kind === "post") {
            const createdAt = NOW - op.age;
            const id = newId(createdAt).slice(0, 10) + (serial++).toString(32).padStart(16, "0");
            const echo: ChangedEcho = { id, authorId: users[op.author]!, tags: op.tags, createdAt };
            const statements: SQL[] = [
              sql`INSERT INTO echos (id, author_id, content, tags, created_at) VALUES (${id}, ${echo.authorId}, 'x', ${JSON.stringify(op.tags)}, ${createdAt})`,
            ];
            for (const t of op.tags) {
              statements.push(sql`INSERT INTO tags (name, created_at) VALUES (${t}, 0) ON CONFLICT DO NOTHING`);
              statements.push(sql`INSERT INTO echo_tags (tag, echo_id, tags) VALUES (${t}, ${id}, ${JSON.stringify(op.tags)})`);
            }
            await batch(app.db, statements);
            echos.push({ ...echo, likes: 0 });
            change = { type: "post", echo };
          } else {
            if (echos.length === 0) continue;
            const [gone] = echos.splice(op.pick % echos.length, 1);
            await batch(app.db, [sql`DELETE FROM echos WHERE id = ${gone!.id}`]);
            change = { type: "delete", echoIds: [gone!.id] };
          }
          if (op.delivery === "lost") lost = true;
          else for (let n = op.delivery === "twice" ? 2 : 1; n > 0; n--) await consumeChanges(app, app.db, [change], NOW);
        }
        const expected = referenceFeed(rule, echos, [], users[0]!, NOW).slice(0, INDEX_CAP);
        if (!lost) expect(await indexed(rule)).toEqual(expected);
        // the repair pass finds what the lost messages left out (or in), whatever was lost
        await repairIndexes(app, app.db, NOW);
        expect(await indexed(rule)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  }, 240_000);
});
