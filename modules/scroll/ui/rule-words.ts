import type { Scroll } from "../schema";

const RANGE_TEXT = { "1day": "last day", "1month": "last month", "1year": "last year", allTime: "all time" } as const;
const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** The rest of a feed's rule in words: order, most-liked window, hide-liked, replies, date range. */
export function describeRule(config: NonNullable<Scroll["feedConfig"]>): string {
  const parts = [
    config.sortBy === "mostLiked"
      ? `Most liked first (${RANGE_TEXT[config.sortTimeRange]})`
      : config.sortBy === "oldestFirst"
        ? "Oldest first"
        : "Newest first",
  ];
  if (config.excludeLikedEchos) parts.push("hides echos you liked");
  if (config.replies) parts.push("includes replies");
  const range = config.dateRange;
  if (range?.startDate && range.endDate) parts.push(`from ${day(range.startDate)} to ${day(range.endDate)}`);
  else if (range?.startDate) parts.push(`from ${day(range.startDate)}`);
  else if (range?.endDate) parts.push(`until ${day(range.endDate)}`);
  return parts.join(" · ");
}
