// Client-safe public face of the scroll module.
export {
  CreateScrollSchema,
  UpdateScrollSchema,
  AddEchoSchema,
  FeedConfigSchema,
  PreviewSchema,
  SCROLL_TYPES,
  MATCH_TYPES,
  SORTS,
  TIME_RANGES,
  MAX_NAME,
  MAX_DESCRIPTION,
  MAX_RULE_TAGS,
  MAX_RULE_AUTHORS,
  FEED_TAG_SUGGESTIONS,
  type Scroll,
  type ScrollEchoPage,
  type FeedRule,
  type FeedConfig,
  type ScrollType,
  type UserRef,
  type TagRef,
  type WhyAnswer,
} from "./schema";
export { referenceFeed, type RefEcho, type RefLike } from "./feed-rules.reference";
export { ScrollPicker } from "./ui/scroll-picker";
export { ScrollPanel } from "./ui/scroll-panel";
export { ScrollCard } from "./ui/scroll-card";
export { FollowScrollButton } from "./ui/follow-button";
export { HomeFeed } from "./ui/home-feed";
export { homeLiveQuery } from "./ui/live-query";
export { SaveToScroll } from "./ui/save-to-scroll-lazy";
export { whyNotInMyFeed } from "./ui/why-not-lazy";
export { ScrollForm } from "./ui/scroll-form";
export { ScrollDetail } from "./ui/scroll-detail";
export { ScrollsOverview, ScrollsByType } from "./ui/scrolls-lists";
export { pickSelected, storeSelection, readStoredSelection, SELECTED_KEY, FOLLOWING, ALL_ECHOS } from "./ui/selection";
