// Client-safe public face of the scroll module.
export {
  CreateScrollSchema,
  UpdateScrollSchema,
  AddEchoSchema,
  FeedConfigSchema,
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
} from "./schema";
export { referenceFeed, type RefEcho, type RefLike } from "./feed-rules.reference";
