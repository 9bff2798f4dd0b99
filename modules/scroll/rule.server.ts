// A feed rule has one shape inside the server: FeedRule (schema.ts), what the engine
// (feed-rules.server.ts), the index (feed-index.server.ts), the reference model and live filters
// read. Every other shape is an edge, and its conversion is here:
//   the scroll row     ruleColumns (what a select reads), toRule (row → rule),
//                      storedRule / ruleAssignments (rule → the row's values), sameRule
//   the API's input    ruleOfConfig (feedConfig as create, edit and preview take it → rule)
//   the API's answer   feedConfigOf (rule → a scroll object's feedConfig), ruleOfFeedConfig (back)
//   the feed index     canonicalRule, ruleKeyOf (rule → feed_indexes.rule_key), ruleOfKey (back)
import { badRequest, rangeEnd, rangeStart } from "../shared/index";
import { sql, tables, type SQL } from "../shared/index.server";
import type { FeedConfig, FeedConfigInput, FeedRule, TagRef, UserRef } from "./schema";

/** The rule's fields, in the order the scroll row and the index key keep them. */
export const RULE_FIELDS = ["tagMatchType", "includedTags", "excludedTags", "authors", "sortBy", "sortTimeRange", "excludeLikedEchos", "startDate", "endDate", "replies"] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

// ---------------------------------------------------------------------------------------------
// The scroll row

/** A scroll's feed rule as its row stores it, from `scrolls` or an alias of it (types and the
 * JSON lists' and flag's decoding come from the schema; toRule reads them). */
export const ruleColumns = <T extends Record<RuleField, unknown>>(t: T): Pick<T, RuleField> => ({
  tagMatchType: t.tagMatchType,
  includedTags: t.includedTags,
  excludedTags: t.excludedTags,
  authors: t.authors,
  sortBy: t.sortBy,
  sortTimeRange: t.sortTimeRange,
  excludeLikedEchos: t.excludeLikedEchos,
  startDate: t.startDate,
  endDate: t.endDate,
  replies: t.replies,
});

/** A scroll row's feed rule (any selection with the rule's columns). */
export function toRule(row: FeedRule): FeedRule {
  return {
    tagMatchType: row.tagMatchType,
    includedTags: row.includedTags,
    excludedTags: row.excludedTags,
    authors: row.authors,
    sortBy: row.sortBy,
    sortTimeRange: row.sortTimeRange,
    excludeLikedEchos: row.excludeLikedEchos,
    startDate: row.startDate,
    endDate: row.endDate,
    replies: row.replies === true,
  };
}

/** A rule as its scroll row stores it (the JSON lists as text, the flag as 0/1), by column key. */
export const storedRule = (rule: FeedRule): Record<RuleField, string | number | null> => ({
  tagMatchType: rule.tagMatchType,
  includedTags: JSON.stringify(rule.includedTags),
  excludedTags: JSON.stringify(rule.excludedTags),
  authors: JSON.stringify(rule.authors),
  sortBy: rule.sortBy,
  sortTimeRange: rule.sortTimeRange,
  excludeLikedEchos: rule.excludeLikedEchos ? 1 : 0,
  startDate: rule.startDate,
  endDate: rule.endDate,
  replies: rule.replies ? 1 : 0,
});

/** `column = value` for each of the rule's columns: an UPDATE of the scroll's rule. */
export const ruleAssignments = (rule: FeedRule): SQL[] =>
  Object.entries(storedRule(rule)).map(([key, value]) => sql`${sql.identifier(tables.scrolls[key as RuleField].name)} = ${value}`);

/** Equal as the scroll row stores them: what a page's SQL guard compares (holdsRule). */
export const sameRule = (a: FeedRule, b: FeedRule) => JSON.stringify(storedRule(a)) === JSON.stringify(storedRule(b));

// ---------------------------------------------------------------------------------------------
// The API: feedConfig in (create, edit, preview) and out (a scroll object)

/** A feed created without feedConfig (and every curation's row): every echo, newest first. */
function defaultConfig(): FeedConfigInput {
  return {
    tagMatchType: "any",
    includedTags: [],
    excludedTags: [],
    authors: [],
    sortBy: "newestFirst",
    sortTimeRange: "allTime",
    excludeLikedEchos: false,
    replies: false,
    dateRange: null,
  };
}

/** Inclusive bounds (rangeStart, rangeEnd: a date-only end is its whole day). */
function ruleDates(range: FeedConfigInput["dateRange"]): { start: number | null; end: number | null } {
  const start = range?.startDate ? rangeStart(range.startDate) : null;
  const end = range?.endDate ? rangeEnd(range.endDate) : null;
  if (start !== null && end !== null && start > end) throw badRequest("The start date must be on or before the end date");
  return { start, end };
}

/** A rule as create, edit and preview take it (validated; none: the default rule), as the engine reads it once saved. */
export function ruleOfConfig(input: FeedConfigInput | null | undefined): FeedRule {
  const config = input ?? defaultConfig();
  const { start, end } = ruleDates(config.dateRange);
  return {
    tagMatchType: config.includedTags.length === 0 ? "any" : config.tagMatchType,
    includedTags: config.includedTags,
    excludedTags: config.excludedTags,
    authors: config.authors,
    sortBy: config.sortBy,
    sortTimeRange: config.sortTimeRange,
    excludeLikedEchos: config.excludeLikedEchos,
    startDate: start,
    endDate: end,
    replies: config.replies,
  };
}

/** Tags are keyed by their normalised name (as on echos), so a rule's tags need no read to hydrate. */
const tagRef = (name: string): TagRef => ({ _id: name, name });
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A scroll object's feedConfig: the rule, its authors named by `names` (the row's authorNames). */
export function feedConfigOf(rule: FeedRule, names: Map<string, string>): FeedConfig {
  return {
    tagMatchType: rule.tagMatchType,
    includedTags: rule.includedTags.map(tagRef),
    excludedTags: rule.excludedTags.map(tagRef),
    authors: rule.authors.map((id): UserRef => ({ _id: id, userName: names.get(id) ?? "unknown" })),
    sortBy: rule.sortBy,
    sortTimeRange: rule.sortTimeRange,
    excludeLikedEchos: rule.excludeLikedEchos,
    replies: rule.replies === true,
    dateRange: rule.startDate === null && rule.endDate === null ? null : { startDate: iso(rule.startDate), endDate: iso(rule.endDate) },
  };
}

/** The rule back from a scroll object's feedConfig (home has the viewer's scrolls loaded). */
export function ruleOfFeedConfig(c: FeedConfig | null): FeedRule {
  const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);
  return {
    tagMatchType: c?.tagMatchType ?? "any",
    includedTags: (c?.includedTags ?? []).map((t) => t.name),
    excludedTags: (c?.excludedTags ?? []).map((t) => t.name),
    authors: (c?.authors ?? []).map((a) => a._id),
    sortBy: c?.sortBy ?? "newestFirst",
    sortTimeRange: c?.sortTimeRange ?? "allTime",
    excludeLikedEchos: c?.excludeLikedEchos ?? false,
    startDate: ms(c?.dateRange?.startDate),
    endDate: ms(c?.dateRange?.endDate),
    replies: c?.replies ?? false,
  };
}

// ---------------------------------------------------------------------------------------------
// The feed index (docs/decisions/020-feed-index.md)

const sorted = (list: string[]) => [...new Set(list)].sort();

/** The rule as its index knows it: sets in order, "hide liked" left to each reader; its fields
 * always in this order, so equal rules have one key. `replies` is written only when on: a key
 * made before the option (replies off) names the same rule (decision 024). */
export function canonicalRule(rule: FeedRule): FeedRule {
  return {
    tagMatchType: rule.includedTags.length === 0 ? "any" : rule.tagMatchType,
    includedTags: sorted(rule.includedTags),
    excludedTags: sorted(rule.excludedTags),
    authors: sorted(rule.authors),
    sortBy: rule.sortBy,
    sortTimeRange: rule.sortBy === "mostLiked" ? rule.sortTimeRange : "allTime",
    excludeLikedEchos: false,
    startDate: rule.startDate,
    endDate: rule.endDate,
    ...(rule.replies ? { replies: true } : {}),
  };
}

/** An index's key: its canonical rule as JSON (feed_indexes.rule_key, scrolls.rule_key). */
export const ruleKeyOf = (rule: FeedRule): string => JSON.stringify(canonicalRule(rule));

/** The rule back from its key (a viewer index's key, `v:`, `h:` or `b:<viewer>:<rule key>`, names its rule's: decision 033). */
export const ruleOfKey = (key: string): FeedRule => JSON.parse(/^[vhb]:/.test(key) ? key.slice(key.indexOf(":", 2) + 1) : key) as FeedRule;
