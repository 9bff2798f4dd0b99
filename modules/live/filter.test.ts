// A feed socket's filter is the engine's own rule on the one new echo: held equal to the
// reference model (which feed-rules.property.test.ts holds equal to the SQL engine) over random
// rules and echos, through the API's echo shape the live messages carry.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newId } from "../shared/index";
import { referenceFeed } from "../scroll/index";
import type { Echo } from "../echo/index";
import { DAY, feedRuleArb } from "../../tests/feed-rule-arbitrary";
import { feedMatches } from "./filter";

const NOW = Date.UTC(2026, 10, 1);
const VOCAB = ["tech", "art", "news", "life", "music"];
const USERS = [newId(NOW - 900 * DAY), newId(NOW - 800 * DAY), newId(NOW - 700 * DAY)];
const NOBODY = newId(NOW - 999 * DAY);

const apiEcho = (id: string, authorId: string, tags: string[]): Echo => ({
  _id: id,
  content: "x",
  author: { _id: authorId, userName: "someone" },
  tags: tags.map((name) => ({ _id: name, name })),
  likes: 0,
  isLiked: false,
  comments: [],
  commentsCount: 0,
  parentId: null,
  shares: 0,
  createdAt: new Date(NOW).toISOString(),
});

describe("feedMatches (live feed filter)", () => {
  it("agrees with the reference feed on a new echo, for any rule", () => {
    const echoArb = fc.record({
      age: fc.integer({ min: 0, max: 2 * 365 * DAY }),
      author: fc.constantFrom(...USERS),
      tags: fc.uniqueArray(fc.constantFrom(...VOCAB), { maxLength: 5 }),
    });
    fc.assert(
      fc.property(feedRuleArb({ vocab: VOCAB, users: USERS, nobody: NOBODY, now: NOW }), echoArb, ({ viewer, ...rule }, e) => {
        const id = newId(NOW - e.age);
        const inReference = referenceFeed(rule, [{ id, authorId: e.author, tags: e.tags, createdAt: NOW - e.age, likes: 0 }], [], viewer, NOW);
        expect(feedMatches(rule, apiEcho(id, e.author, e.tags), NOW)).toBe(inReference.length === 1);
      }),
      { numRuns: 500 },
    );
  });
});
