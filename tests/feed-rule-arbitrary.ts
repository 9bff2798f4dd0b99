// The random feed rule shared by the engine's property test (engine = reference model, in
// workerd) and the API budget test (rows read per page over HTTP): one generator, so the budget
// is held over the same shapes the property test proves correct.
import fc from "fast-check";

export const DAY = 86_400_000;

/** Mostly small lists, sometimes up to the product's limit of 25 (D1's 100-parameter cap). */
const list = (item: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.uniqueArray(item, { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.uniqueArray(item, { maxLength: 25, size: "max" }) },
  );

/**
 * A feed rule over a vocabulary (plus made-up tags), existing authors (plus `nobody`, an id no
 * user has) and dates within two years before `now`, and the viewer who reads it.
 */
export function feedRuleArb({ vocab, users, nobody, now }: { vocab: string[]; users: string[]; nobody: string; now: number }) {
  const tag = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...vocab) }, { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{3,8}$/) });
  const date = fc.option(fc.integer({ min: now - 2 * 365 * DAY, max: now }), { nil: null });
  return fc
    .record({
      tagMatchType: fc.constantFrom("all" as const, "any" as const),
      includedTags: list(tag),
      excludedTags: list(tag),
      authors: list(fc.oneof(fc.constantFrom(...users), fc.constant(nobody))),
      sortBy: fc.constantFrom("newestFirst" as const, "oldestFirst" as const, "mostLiked" as const),
      sortTimeRange: fc.constantFrom("1day" as const, "1month" as const, "1year" as const, "allTime" as const),
      excludeLikedEchos: fc.boolean(),
      replies: fc.boolean(),
      startDate: date,
      endDate: date,
      viewer: fc.constantFrom(...users),
    })
    .map((r) => ({ ...r, tagMatchType: r.includedTags.length === 0 ? ("any" as const) : r.tagMatchType }));
}
