// Client-safe public face of the moderation module (decision 029).
export {
  AccountActionSchema,
  EchoActionSchema,
  ResolveSchema,
  AppealSchema,
  SuspensionAppealSchema,
  ACCOUNT_ACTIONS,
  NOTICE_TEXT,
  SUSPENSION_GRACE_MS,
  MAX_MODERATION_TEXT,
  type AccountAction,
  type AccountState,
  type ModerationCase,
  type QueuePage,
  type ModerationAction,
  type AuditPage,
  type ModerationNotice,
  type MyModeration,
} from "./schema";
export { ModerationScreen, NotAModerator } from "./ui/moderation-screen";
export { AccountStatusScreen } from "./ui/account-status";
export { SuspensionAppealForm } from "./ui/suspension-appeal";
