// The moderation operations (issue 32, decision 029) and their answers: kept apart from routes.ts
// and responses.ts so the table stays readable; routes.ts spreads them into API_OPERATIONS.
import * as v from "valibot";
import {
  AccountActionSchema,
  AppealSchema,
  EchoActionSchema,
  ResolveSchema,
  SuspensionAppealSchema,
  type AuditPage,
  type ModerationCase,
  type MyModeration,
  type QueuePage,
} from "../moderation/index";
import { PageQuerySchema } from "../shared/index";
import type { ApiRoutePath } from "../verticals/index";

/** An operation as routes.ts's ApiOperation has it (not imported: routes.ts imports this file). */
type Operation = {
  route: ApiRoutePath;
  method: "GET" | "POST";
  tag: "moderation";
  summary: string;
  auth: boolean;
  params?: Record<string, string>;
  query?: v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;
  body?: v.GenericSchema;
  responses: Record<number, v.GenericSchema>;
};

const id = v.pipe(v.string(), v.description("An id: 26 characters, sortable by creation time"));
const isoTime = v.pipe(v.string(), v.description("A time in ISO 8601 (UTC)"));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const pagination = v.strictObject({ limit: count, hasMore: v.boolean(), nextCursor: v.nullable(v.string()) });
const state = v.picklist(["active", "limited", "suspended"] as const);
const userRef = v.strictObject({ _id: id, userName: v.string() });

export const CaseSchema = v.strictObject({
  _id: v.pipe(id, v.description("The reported echo's id, or the appealed action's")),
  kind: v.picklist(["echo", "appeal"] as const),
  echoId: v.nullable(id),
  echoContent: v.pipe(v.nullable(v.string()), v.description("null once the echo is deleted")),
  echoHidden: v.pipe(v.boolean(), v.description("Whether moderators hide the echo from everyone but its author (false for an appeal's case without an echo)")),
  user: v.strictObject({ _id: id, userName: v.string(), state }),
  reportsCount: count,
  latestReason: v.pipe(v.string(), v.description("The latest report's reason, or the appeal's text")),
  latestAt: isoTime,
  assignee: v.nullable(userRef),
  resolvedAt: v.nullable(isoTime),
  note: v.nullable(v.string()),
});
const QueuePageSchema = v.strictObject({ cases: v.array(CaseSchema), pagination });

export const ActionSchema = v.strictObject({
  _id: id,
  moderator: userRef,
  action: v.pipe(v.string(), v.description("assign, resolve, hide, unhide, warn, limit, unlimit, suspend, unsuspend")),
  user: v.nullable(userRef),
  echoId: v.nullable(id),
  caseId: v.nullable(id),
  reason: v.string(),
  createdAt: isoTime,
  appeal: v.nullable(v.string()),
  appealedAt: v.nullable(isoTime),
});
const AuditPageSchema = v.strictObject({ actions: v.array(ActionSchema), pagination });

const NoticeSchema = v.strictObject({
  _id: id,
  action: v.string(),
  echoId: v.nullable(id),
  reason: v.string(),
  createdAt: isoTime,
  appeal: v.nullable(v.string()),
  appealedAt: v.nullable(isoTime),
  canAppeal: v.boolean(),
});
const MyModerationSchema = v.strictObject({ state, isModerator: v.boolean(), notices: v.array(NoticeSchema), pagination });

type Agrees<T, S extends v.GenericSchema> = [T] extends [v.InferOutput<S>] ? ([v.InferOutput<S>] extends [T] ? true : false) : false;
const agree = <_ extends true>() => undefined;
agree<Agrees<ModerationCase, typeof CaseSchema>>();
agree<Agrees<QueuePage, typeof QueuePageSchema>>();
agree<Agrees<AuditPage, typeof AuditPageSchema>>();
agree<Agrees<MyModeration, typeof MyModerationSchema>>();

const { limit, cursor } = PageQuerySchema.entries;
const cursorQuery = v.object({ limit, cursor: v.pipe(cursor, v.description("`pagination.nextCursor` of the previous page")) });
const mod = "Moderators only (403 for everyone else). ";

export const MODERATION_OPERATIONS: readonly Operation[] = [
  { route: "moderation/queue", method: "GET", tag: "moderation", summary: `${mod}The open cases (reported echos grouped by echo, appeals), the latest report first, by cursor; \`user\`: every case of one account`, auth: true, query: v.object({ ...cursorQuery.entries, user: v.optional(v.pipe(v.string(), v.description("An account's id: its cases, open or resolved"))) }), responses: { 200: QueuePageSchema } },
  { route: "moderation/case/:id/assign", method: "POST", tag: "moderation", summary: `${mod}Take a case (logged)`, auth: true, params: { id: "The case's id" }, responses: { 200: v.strictObject({ case: CaseSchema }) } },
  { route: "moderation/case/:id/resolve", method: "POST", tag: "moderation", summary: `${mod}Close a case with a note (logged); a new report reopens an echo's case`, auth: true, params: { id: "The case's id" }, body: ResolveSchema, responses: { 200: v.strictObject({ case: CaseSchema }) } },
  { route: "moderation/log", method: "GET", tag: "moderation", summary: `${mod}The audit log: every moderator action (who, what, when, why), newest first, by cursor`, auth: true, query: cursorQuery, responses: { 200: AuditPageSchema } },
  { route: "moderation/echo/:id", method: "POST", tag: "moderation", summary: `${mod}Hide an echo from everyone but its author (who sees the reason), or show it again (logged)`, auth: true, params: { id: "The echo's id" }, body: EchoActionSchema, responses: { 200: v.strictObject({ echoId: id, hidden: v.boolean(), action: ActionSchema }) } },
  { route: "moderation/user/:userId", method: "POST", tag: "moderation", summary: `${mod}Warn, limit (echos leave public lists), suspend (no sign-in, sessions end, content hidden; deleted after 30 days), or lift a limit or suspension (logged; the user reads it)`, auth: true, params: { userId: "The account's id" }, body: AccountActionSchema, responses: { 200: v.strictObject({ user: v.strictObject({ _id: id, userName: v.string(), state }), action: ActionSchema }) } },
  { route: "moderation/me", method: "GET", tag: "moderation", summary: "Your account's state and what moderators did to it, newest first, by cursor", auth: true, query: cursorQuery, responses: { 200: MyModerationSchema } },
  { route: "moderation/appeal/:actionId", method: "POST", tag: "moderation", summary: "Appeal an action that concerned you, once: it opens a case in the queue", auth: true, params: { actionId: "The action's id (a notice's `_id`)" }, body: AppealSchema, responses: { 201: v.strictObject({ notice: NoticeSchema }) } },
  { route: "moderation/appeal-suspension", method: "POST", tag: "moderation", summary: "A suspended account (which cannot sign in) appeals its suspension, once, with its name and password", auth: false, body: SuspensionAppealSchema, responses: { 201: v.strictObject({ notice: NoticeSchema }) } },
];
