import * as v from "valibot";
import { dateText, isId, maxChars, text } from "../shared/index";
import { isValidTag, normalizeTags, TAG_RULE_MESSAGE, type Echo } from "../echo/index";

export const MAX_NAME = 50;
export const MAX_DESCRIPTION = 200;
/** Rule sizes: enough for any real feed, small enough that every rule stays one fast query. */
export const MAX_RULE_TAGS = 25;
export const MAX_RULE_AUTHORS = 25;
/** Spec §5: suggestions shown while no include tags are chosen (first 6). */
export const FEED_TAG_SUGGESTIONS = [
  "tech", "programming", "ai", "news", "thoughts", "life", "work",
  "travel", "food", "books", "music", "art", "fitness", "learning",
] as const;

export const SCROLL_TYPES = ["feed", "curation"] as const;
export const MATCH_TYPES = ["all", "any"] as const;
export const SORTS = ["newestFirst", "oldestFirst", "mostLiked"] as const;
export const TIME_RANGES = ["1day", "1month", "1year", "allTime"] as const;
export type ScrollType = (typeof SCROLL_TYPES)[number];
export type MatchType = (typeof MATCH_TYPES)[number];
export type SortBy = (typeof SORTS)[number];
export type TimeRange = (typeof TIME_RANGES)[number];

export const TIME_RANGE_MS: Record<Exclude<TimeRange, "allTime">, number> = {
  "1day": 86_400_000,
  "1month": 30 * 86_400_000,
  "1year": 365 * 86_400_000,
};

const ruleTags = (field: string) =>
  v.optional(
    v.pipe(
      v.array(text(field, `${field} must be strings`), `${field} must be a list of strings`),
      v.maxLength(200, `${field}: at most ${MAX_RULE_TAGS} tags`),
      v.transform((list: string[]) => normalizeTags(list)),
      v.maxLength(MAX_RULE_TAGS, `${field}: at most ${MAX_RULE_TAGS} tags`),
      v.check((tags) => tags.every(isValidTag), `${field}: ${TAG_RULE_MESSAGE}`),
    ),
    [],
  );

const dateValue = (field: string) => v.optional(v.nullable(dateText(field, `${field} must be a date string`)));

export const FeedConfigSchema = v.object(
  {
    tagMatchType: v.optional(v.picklist(MATCH_TYPES, "feedConfig.tagMatchType must be all or any"), "any"),
    includedTags: ruleTags("feedConfig.includedTags"),
    excludedTags: ruleTags("feedConfig.excludedTags"),
    authors: v.optional(
      v.pipe(
        v.array(text("feedConfig.authors", "feedConfig.authors must be user ids"), "feedConfig.authors must be a list of user ids"),
        v.transform((ids: string[]) => [...new Set(ids)]),
        v.maxLength(MAX_RULE_AUTHORS, `feedConfig.authors: at most ${MAX_RULE_AUTHORS} authors`),
        v.check((ids) => ids.every(isId), "feedConfig.authors must be user ids"),
      ),
      [],
    ),
    sortBy: v.optional(v.picklist(SORTS, `feedConfig.sortBy must be one of ${SORTS.join(", ")}`), "newestFirst"),
    sortTimeRange: v.optional(
      v.picklist(TIME_RANGES, `feedConfig.sortTimeRange must be one of ${TIME_RANGES.join(", ")}`),
      "allTime",
    ),
    excludeLikedEchos: v.optional(v.boolean("feedConfig.excludeLikedEchos must be true or false"), false),
    replies: v.optional(v.boolean("feedConfig.replies must be true or false"), false),
    dateRange: v.optional(
      v.nullable(
        v.object(
          { startDate: dateValue("feedConfig.dateRange.startDate"), endDate: dateValue("feedConfig.dateRange.endDate") },
          "feedConfig.dateRange must be an object",
        ),
      ),
    ),
  },
  "feedConfig must be an object",
);
export type FeedConfigInput = v.InferOutput<typeof FeedConfigSchema>;

const name = v.pipe(
  text("name"),
  v.trim(),
  v.nonEmpty("name is required"),
  maxChars(MAX_NAME, `name must be at most ${MAX_NAME} characters`),
);
const description = v.pipe(
  text("description"),
  v.trim(),
  maxChars(MAX_DESCRIPTION, `description must be at most ${MAX_DESCRIPTION} characters`),
);

export const CreateScrollSchema = v.object(
  {
    name: v.optional(name, ""),
    description: v.optional(v.nullable(description), ""),
    type: v.picklist(SCROLL_TYPES, "type must be feed or curation"),
    isPrivate: v.optional(v.boolean("isPrivate must be true or false"), false),
    feedConfig: v.optional(v.nullable(FeedConfigSchema)),
  },
  "Request body must be a JSON object",
);
export type CreateScrollInput = v.InferOutput<typeof CreateScrollSchema>;

export const UpdateScrollSchema = v.object(
  {
    name: v.optional(name),
    description: v.optional(v.nullable(description)),
    type: v.optional(v.picklist(SCROLL_TYPES, "type must be feed or curation")),
    isPrivate: v.optional(v.boolean("isPrivate must be true or false")),
    feedConfig: v.optional(v.nullable(FeedConfigSchema)),
  },
  "Request body must be a JSON object",
);
export type UpdateScrollInput = v.InferOutput<typeof UpdateScrollSchema>;

export const AddEchoSchema = v.object(
  { echoId: v.optional(v.pipe(text("echoId"), v.nonEmpty("echoId is required")), "") },
  "Request body must be a JSON object",
);

/** A stored feed rule, normalised: what the SQL engine and the reference both evaluate. */
export type FeedRule = {
  tagMatchType: MatchType;
  includedTags: string[];
  excludedTags: string[];
  authors: string[];
  sortBy: SortBy;
  sortTimeRange: TimeRange;
  excludeLikedEchos: boolean;
  startDate: number | null;
  endDate: number | null;
  /** whether replies are in the feed (decision 024); absent: off, as in an index key made
   * before the option (canonicalRule writes it only when on) */
  replies?: boolean;
};

export type UserRef = { _id: string; userName: string };
/** A tag as the API returns it everywhere (product decisions): its `_id` is its normalised name. */
export type TagRef = { _id: string; name: string };

export type FeedConfig = {
  tagMatchType: MatchType;
  includedTags: TagRef[];
  excludedTags: TagRef[];
  authors: UserRef[];
  sortBy: SortBy;
  sortTimeRange: TimeRange;
  excludeLikedEchos: boolean;
  replies: boolean;
  dateRange: { startDate: string | null; endDate: string | null } | null;
};

export type Scroll = {
  _id: string;
  name: string;
  description: string;
  type: ScrollType;
  isPrivate: boolean;
  creator: UserRef;
  /** the viewer's id when the viewer follows the scroll (spec: followed = viewer id in savedBy) */
  savedBy: string[];
  isFollowing: boolean;
  followersCount: number;
  echosCount: number;
  createdAt: string;
  feedConfig: FeedConfig | null;
  /** how many feeds were forked from this one (issue 16) */
  forkCount: number;
  /** the feed this one was forked from, while it exists and the viewer may see it */
  forkedFrom: { _id: string; name: string; creator: UserRef } | null;
};

export type ScrollEchoPage = {
  echos: Echo[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean; nextCursor: string | null };
  /** a feed whose rule has an index (decision 020): "building" while its backfill runs (the page
   * comes from the engine, and may be short), "ready" once pages come from the index */
  feedIndex?: "building" | "ready";
};

/** POST /scroll/preview: the rule as create takes it (same validation and messages). */
export const PreviewSchema = v.object({ feedConfig: v.optional(v.nullable(FeedConfigSchema)) }, "Request body must be a JSON object");

/** GET /scroll/{id}/why/{echoId}: whether the echo is in the scroll, and a sentence per rule. */
export type WhyAnswer = { inFeed: boolean; reasons: { rule: string; passed: boolean; text: string }[] };
