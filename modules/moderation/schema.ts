// Moderation's inputs and answers (issue 32, docs/decisions/029-moderation.md).
import * as v from "valibot";
import { LoginSchema } from "../auth/index";
import { maxChars, text } from "../shared/index";

export const MAX_MODERATION_TEXT = 500;
/** How long a suspension can be lifted before the cron deletes the account (decision 029). */
export const SUSPENSION_GRACE_MS = 30 * 86_400_000;

const why = (field: string) =>
  v.optional(
    v.pipe(
      text(field),
      v.trim(),
      v.nonEmpty(`${field} is required`),
      maxChars(MAX_MODERATION_TEXT, `${field} must be at most ${MAX_MODERATION_TEXT} characters`),
    ),
    "",
  );

export const ACCOUNT_ACTIONS = ["warn", "limit", "unlimit", "suspend", "unsuspend"] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

/** POST /api/moderation/user/:userId: an action on an account, with why (the user reads it). */
export const AccountActionSchema = v.object(
  {
    action: v.picklist(ACCOUNT_ACTIONS, `action must be one of ${ACCOUNT_ACTIONS.join(", ")}`),
    reason: why("reason"),
  },
  "Request body must be a JSON object",
);

/** POST /api/moderation/echo/:id: hide (true) or show again (false), with why. */
export const EchoActionSchema = v.object(
  { hidden: v.boolean("hidden must be true or false"), reason: why("reason") },
  "Request body must be a JSON object",
);

/** POST /api/moderation/case/:id/resolve: the note that closes a case. */
export const ResolveSchema = v.object({ note: why("note") }, "Request body must be a JSON object");

/** POST /api/moderation/appeal/:actionId: the affected user's one appeal. */
export const AppealSchema = v.object({ text: why("text") }, "Request body must be a JSON object");

/** POST /api/moderation/appeal-suspension: a suspended account's name and password, and its appeal. */
export const SuspensionAppealSchema = v.object({ ...LoginSchema.entries, text: why("text") }, "Request body must be a JSON object");

export type ModerationPagination = { limit: number; hasMore: boolean; nextCursor: string | null };

/** A queue entry: a reported echo (its reports grouped) or an appeal. */
export type ModerationCase = {
  _id: string;
  kind: "echo" | "appeal";
  echoId: string | null;
  echoContent: string | null;
  /** whether moderators hide the echo (its "e:" entry in the moderation set, decision 029) */
  echoHidden: boolean;
  user: { _id: string; userName: string; state: AccountState };
  reportsCount: number;
  latestReason: string;
  latestAt: string;
  assignee: { _id: string; userName: string } | null;
  resolvedAt: string | null;
  note: string | null;
};
export type QueuePage = { cases: ModerationCase[]; pagination: ModerationPagination };

export type AccountState = "active" | "limited" | "suspended";

/** One audit-log line: who did what to whom, when and why. */
export type ModerationAction = {
  _id: string;
  moderator: { _id: string; userName: string };
  action: string;
  user: { _id: string; userName: string } | null;
  echoId: string | null;
  caseId: string | null;
  reason: string;
  createdAt: string;
  appeal: string | null;
  appealedAt: string | null;
};
export type AuditPage = { actions: ModerationAction[]; pagination: ModerationPagination };

/** What the affected user sees: their account's state and what moderators did, with its appeal. */
export type ModerationNotice = {
  _id: string;
  action: string;
  echoId: string | null;
  reason: string;
  createdAt: string;
  appeal: string | null;
  appealedAt: string | null;
  canAppeal: boolean;
};
export type MyModeration = { state: AccountState; isModerator: boolean; notices: ModerationNotice[]; pagination: ModerationPagination };

/** What the affected user reads for each action (exact texts, shown on their moderation page). */
export const NOTICE_TEXT: Record<string, string> = {
  warn: "A moderator warned you",
  limit: "A moderator limited your account: your echos no longer show in public lists",
  unlimit: "A moderator lifted the limit on your account",
  suspend: "A moderator suspended your account",
  unsuspend: "A moderator lifted your account's suspension",
  hide: "A moderator hid one of your echos from everyone but you",
  unhide: "A moderator showed one of your echos again",
};
/** Actions the affected user may appeal (once each). */
export const APPEALABLE = ["warn", "limit", "suspend", "hide"] as const;
