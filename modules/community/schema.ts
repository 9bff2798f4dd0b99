import * as v from "valibot";

export const PERIODS = ["today", "week", "month", "all"] as const;
export const POPULAR_SORTS = ["likes", "comments", "shares", "recent"] as const;
export type Period = (typeof PERIODS)[number];
export type PopularSort = (typeof POPULAR_SORTS)[number];

export const PERIOD_MS: Record<Period, number | null> = {
  today: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  all: null,
};

/** How many entries each ranked list keeps (the API serves up to 100 of them). */
export const KEEP_RANKED = 200;
export const CACHED_TAGS = 100;
export const CACHED_POPULAR = 100;

const limit = v.optional(v.pipe(v.string(), v.transform(Number), v.number("limit must be a number"), v.integer("limit must be a whole number")));

export const CommunityLimitSchema = v.object({ limit });
export const PopularQuerySchema = v.object({
  limit,
  period: v.optional(v.picklist(PERIODS, `period must be one of ${PERIODS.join(", ")}`), "today"),
  sort: v.optional(v.picklist(POPULAR_SORTS, `sort must be one of ${POPULAR_SORTS.join(", ")}`), "likes"),
});

/** The popular page's address bar: the API's values, and an unknown one falls back to the default. */
export const PopularPageQuerySchema = v.object({
  period: v.fallback(PopularQuerySchema.entries.period, "today"),
  sort: v.fallback(PopularQuerySchema.entries.sort, "likes"),
});

export type Tag = { _id: string; name: string; count: number; recentEchosCount: number; createdAt: string; description: string };
