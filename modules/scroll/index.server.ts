// Server-only public face of the scroll module.
export { scrollEchos, scrollWithEchos, DOCUMENT_CANDIDATE_ROWS } from "./pages.server";
export { getScroll, scrollWithRule } from "./rows.server";
export { createScroll, updateScroll, deleteScroll, addEcho, CURATION_MAX_ECHOS, removeEcho, setFollow } from "./writes.server";
export {
  listMyScrolls,
  listMyScrollsOfType,
  SCROLLS_PAGE,
  findMyScroll,
  myScrollsQuery,
  MY_SCROLLS_LIMIT,
  PUBLIC_SCROLLS_MAX,
  type MyScrollsPage,
  listUserScrolls,
  SAVED_SCROLLS_MAX,
  listPublicScrolls,
} from "./lists.server";
export { searchPublicScrolls } from "./search.server";
export { toRule, ruleKeyOf } from "./rule.server";
export { feedPageQuery } from "./feed-rules.server";
export { INDEX_CAP } from "./feed-index.server";
export { consumeChanges, type Consumed } from "./feed-index-consumer.server";
export { backfillStep } from "./feed-index-backfill.server";
export { repairIndexes, type Repaired } from "./feed-index-repair.server";
export { keepFeedHints } from "./feed-hint-writes.server";
export { walkDenseLikes } from "./feed-viewer-walk.server";
export { ruleChecks } from "./feed-rules.reference";
export { previewFeedConfig } from "./preview.server";
export { whyHere } from "./why.server";
export { forkScroll } from "./fork.server";
export { scrollsAndSelection, storedSelection } from "./selection.server";
export { scrollWebFeed } from "./web-feed.server";
