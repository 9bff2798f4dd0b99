// Client-safe public face of the echo module: schemas, constants, types, screens.
export {
  PostEchoSchema,
  HistoryQuerySchema,
  MAX_WARNING,
  MAX_EDITS,
  type EchoVersion,
  type EchoHistory,
  ReportSchema,
  TagQuerySchema,
  TagPageQuerySchema,
  SearchPageQuerySchema,
  SEARCH_TABS,
  type SearchTab,
  AllQuerySchema,
  SearchEchosQuerySchema,
  MAX_CONTENT,
  MAX_TAGS,
  MAX_TAG_LENGTH,
  TAG_SUGGESTIONS,
  TAG_ORDERS,
  TIMEFRAMES,
  TAG_RULE_MESSAGE,
  normalizeTag,
  normalizeTags,
  isValidTag,
  type Echo,
  type EchoPage,
  type TagOrder,
  type Timeframe,
  type Highlights,
  type Thread,
  type QuotedEcho,
  type Repost,
  type RepostersPage,
  REPOSTS_PAGE,
  QUOTES_PAGE,
  type ThreadItem,
  THREAD_PAGE,
  ThreadQuerySchema,
} from "./schema";
export { MAX_SEARCH_CHARS, SEARCH_ERRORS } from "./search-query";
export { EchoCard } from "./ui/echo-card";
export { EchoText } from "./ui/echo-text";
export { EchoFeed, EchoSkeletons, type FetchPage } from "./ui/echo-feed";
export { useFeedMemory as useListMemory, type ListSnapshot } from "./ui/feed-memory";
export { CreateEchoForm } from "./ui/create-echo-form";
export { PostedEcho } from "./ui/posted-echo";
export { TagInput } from "./ui/tag-input";
export { TagPage } from "./ui/tag-page";
export { EchoDetail } from "./ui/echo-detail";
export { LiveEdits } from "./ui/live-edits-lazy";
export { EchoExtensionsProvider, type EchoExtensions } from "./ui/echo-extensions";
export { SEARCH_MARKS } from "./ui/search-marks";
export { webFeedAlternates, WEB_FEED_FORMATS } from "./web-feed-links";
