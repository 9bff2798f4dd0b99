// A feed socket's filter against the feed rule as product-decisions.md ("Feed scrolls") and
// product-notes.md ("Last Month" is 30 days, date ranges inclusive) state it, written here on its
// own: `feedMatches` runs the engine's `ruleChecks`, so comparing it with `referenceFeed` (which
// runs the same function) could never fail. Echo times are drawn at and beside the rule's edges,
// where an off-by-one would hide from random times.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newId } from "../shared/index";
import type { Echo } from "../echo/index";
import type { FeedRule } from "../scroll/index";
import { DAY, feedRuleArb } from "../../tests/feed-rule-arbitrary";
import { feedMatches } from "./filter";

const NOW = Date.UTC(2026, 10, 1);
const VOCAB = ["tech", "art", "news", "life", "music"];
const USERS = [newId(NOW - 900 * DAY), newId(NOW - 800 * DAY), newId(NOW - 700 * DAY)];
const NOBODY = newId(NOW - 999 * DAY);
const RANGE_DAYS = { "1day": 1, "1month": 30, "1year": 365 } as const;

/** The decisions' words, one clause a line; a new echo has no likes and the viewer has not liked it. */
function inFeedAsSpecified(rule: FeedRule, e: { authorId: string; tags: string[]; at: number }): boolean {
  const has = (tag: string) => e.tags.includes(tag);
  const tagsOk =
    rule.includedTags.length === 0 || (rule.tagMatchType === "all" ? rule.includedTags.every(has) : rule.includedTags.some(has));
  const noExcluded = !rule.excludedTags.some(has);
  const authorOk = rule.authors.length === 0 || rule.authors.includes(e.authorId);
  const afterStart = rule.startDate === null || e.at >= rule.startDate;
  const beforeEnd = rule.endDate === null || e.at <= rule.endDate;
  const inRange = rule.sortBy !== "mostLiked" || rule.sortTimeRange === "allTime" || e.at >= NOW - RANGE_DAYS[rule.sortTimeRange] * DAY;
  return tagsOk && noExcluded && authorOk && afterStart && beforeEnd && inRange;
}

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
  reposts: 0,
  quotes: 0,
  isReposted: false,
  createdAt: new Date(NOW).toISOString(),
});

/** A time within two years, or one millisecond either side of an edge the rule draws. */
const timeFor = (rule: FeedRule) => {
  const edges = [rule.startDate, rule.endDate, ...(rule.sortTimeRange === "allTime" ? [] : [NOW - RANGE_DAYS[rule.sortTimeRange] * DAY])];
  const near = edges.filter((t): t is number => t !== null).flatMap((t) => [t - 1, t, t + 1].filter((x) => x <= NOW));
  const random = fc.integer({ min: NOW - 2 * 365 * DAY, max: NOW });
  return near.length === 0 ? random : fc.oneof(random, fc.constantFrom(...near));
};

describe("feedMatches (live feed filter)", () => {
  it("lets a new echo in exactly when the decisions' feed rule does, for any rule", () => {
    const arb = feedRuleArb({ vocab: VOCAB, users: USERS, nobody: NOBODY, now: NOW }).chain(({ viewer: _viewer, ...rule }) =>
      fc.record({
        rule: fc.constant(rule),
        at: timeFor(rule),
        author: fc.constantFrom(...USERS),
        tags: fc.uniqueArray(fc.oneof(fc.constantFrom(...VOCAB), fc.constantFrom(...rule.includedTags, ...rule.excludedTags, "x")), { maxLength: 5 }),
      }),
    );
    fc.assert(
      fc.property(arb, ({ rule, at, author, tags }) => {
        const expected = inFeedAsSpecified(rule, { authorId: author, tags, at });
        expect(feedMatches(rule, apiEcho(newId(at), author, tags), NOW)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
