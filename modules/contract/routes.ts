// The one table of the public API (decision 018): each operation's method, path, summary, whether
// it needs a session, and the valibot schemas of its input (path, query, body: the same ones the
// routes parse with) and of its answers. The OpenAPI document (openapi.ts), the reference page
// and the API tests' contract checks are all made from it; each operation's route is typed by
// the route table (modules/verticals/table.ts), and a test fails when a route has no operation.
import * as v from "valibot";
import { ChangePasswordSchema, CredentialsSchema, DeleteAccountSchema, LoginSchema } from "../auth/index";
import { PopularQuerySchema, CommunityLimitSchema } from "../community/index";
import { AllQuerySchema, HistoryQuerySchema, PostEchoSchema, ReportSchema, SearchEchosQuerySchema, TagQuerySchema } from "../echo/index";
import { AddMutedWordSchema, MuteSchema, ProfileScrollsQuerySchema, SearchUsersQuerySchema, UpdateProfileSchema } from "../profile/index";
import { AddEchoSchema, CreateScrollSchema, PreviewSchema, UpdateScrollSchema } from "../scroll/index";
import { LiveQuerySchema } from "../live/index";
import { LIST_MAX_LIMIT, PageQuerySchema } from "../shared/index";
import type { ApiRoutePath } from "../verticals/index";
import * as r from "./responses";
import { MODERATION_OPERATIONS } from "./moderation";

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

export type ApiOperation = {
  /** The route's pattern in the route table, under the "api" prefix ("echo/echo/:id"). */
  route: ApiRoutePath;
  method: Method;
  /** Groups the reference page and the document's tags. */
  tag: "auth" | "echos" | "scrolls" | "search" | "community" | "profiles" | "notifications" | "moderation" | "meta";
  summary: string;
  /** Needs a signed-in session (the `echo_session` cookie); a guest gets 401. */
  auth: boolean;
  /** What each `:param` of the path is. */
  params?: Record<string, string>;
  query?: v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;
  body?: v.GenericSchema;
  /** The success answers by status. Every operation may also answer the error shape (4XX, 5XX). */
  responses: Record<number, v.GenericSchema>;
  /** A WebSocket upgrade (101 Switching Protocols): what the socket then carries. */
  upgrade?: string;
};

/** The list parameters every paged list parses (PageQuerySchema), with what they mean. */
const { page, limit, cursor } = PageQuerySchema.entries;
const cursorParam = v.pipe(cursor, v.description("`pagination.nextCursor` of the previous page"));
const pageQuery = v.object({
  page: v.pipe(page, v.description("The page, from 1 (default 1)")),
  limit: v.pipe(limit, v.description(`Items per page, clamped to 1–100 (default 20; 10 for a profile's echos and scrolls); echo lists clamp lower, to stay within 200 rows read: All echos ${LIST_MAX_LIMIT.allEchos}, one author's ${LIST_MAX_LIMIT.profileEchos}, a tag's ${LIST_MAX_LIMIT.tagEchos}, a scroll's ${LIST_MAX_LIMIT.scrollEchos}, Following ${LIST_MAX_LIMIT.following}, search ${LIST_MAX_LIMIT.searchEchos}, an echo's quotes 30`)),
  cursor: cursorParam,
});
const cursorQuery = v.object({ limit: v.pipe(limit, v.description("Items per page, clamped to 1–12 (default 10)")), cursor: cursorParam });
const echoId = { id: "The echo's id" };
const scrollId = { id: "The scroll's id" };
const userId = { userId: "The user's id" };
const echo = v.strictObject({ echo: r.EchoSchema });
const scroll = v.strictObject({ scroll: r.ScrollSchema });
const scrollPage = v.strictObject({ scrolls: v.array(r.ScrollSchema), pagination: r.PaginationSchema });

export const API_OPERATIONS: readonly ApiOperation[] = [
  { route: "health", method: "GET", tag: "meta", summary: "Readiness: a constant answer", auth: false, responses: { 200: r.OkSchema } },

  { route: "auth/me", method: "GET", tag: "auth", summary: "The signed-in user", auth: true, responses: { 200: r.UserSchema } },
  { route: "auth/signup", method: "POST", tag: "auth", summary: "Create an account and sign in (sets the session cookie)", auth: false, body: CredentialsSchema, responses: { 201: r.UserSchema } },
  { route: "auth/login", method: "POST", tag: "auth", summary: "Sign in (sets the session cookie)", auth: false, body: LoginSchema, responses: { 200: r.UserSchema } },
  { route: "auth/logout", method: "POST", tag: "auth", summary: "Sign out (clears the session cookie)", auth: false, responses: { 200: r.OkSchema } },
  { route: "auth/password", method: "POST", tag: "auth", summary: "Change the password; the user's other sessions are signed out", auth: true, body: ChangePasswordSchema, responses: { 200: r.OkSchema } },

  { route: "echo/all", method: "GET", tag: "echos", summary: "Echos, newest first, optionally of one tag or one author", auth: true, query: v.object({ ...AllQuerySchema.entries, ...pageQuery.entries }), responses: { 200: r.EchoPageSchema } },
  { route: "echo/following", method: "GET", tag: "echos", summary: "The viewer's Following timeline: echos by the people they follow, newest first", auth: true, query: pageQuery, responses: { 200: r.EchoPageSchema } },
  { route: "echo/echo/:id", method: "GET", tag: "echos", summary: "One echo", auth: true, params: echoId, responses: { 200: echo } },
  { route: "echo/post", method: "POST", tag: "echos", summary: "Post an echo (1–1000 characters, up to 5 tags: the chosen `tags` and the #tags typed in `content` together)", auth: true, body: PostEchoSchema, responses: { 201: echo } },
  { route: "echo/delete/:id", method: "DELETE", tag: "echos", summary: "Delete one's own echo", auth: true, params: echoId, responses: { 200: r.DeletedSchema } },
  { route: "echo/like/:id", method: "POST", tag: "echos", summary: "Like an echo (idempotent)", auth: true, params: echoId, responses: { 200: r.LikeSchema } },
  { route: "echo/like/:id", method: "DELETE", tag: "echos", summary: "Unlike an echo (idempotent)", auth: true, params: echoId, responses: { 200: r.LikeSchema } },
  { route: "echo/tag/:name", method: "GET", tag: "echos", summary: "Echos of a tag, in an order and a time window", auth: true, params: { name: "The tag" }, query: v.object({ ...TagQuerySchema.entries, ...pageQuery.entries }), responses: { 200: r.EchoPageSchema } },
  { route: "echo/:id/reply", method: "POST", tag: "echos", summary: "Reply to an echo: an echo with a parent (the same fields and limits as a post; the post limit counts replies)", auth: true, params: echoId, body: PostEchoSchema, responses: { 201: echo } },
  { route: "echo/:id/thread", method: "GET", tag: "echos", summary: "An echo's thread: the chain above it, the echo, its replies oldest first by cursor (each with its first replies)", auth: true, params: echoId, query: v.object({ cursor: cursorParam }), responses: { 200: r.ThreadSchema } },
  { route: "echo/:id/report", method: "POST", tag: "echos", summary: "Report an echo with a reason (once per user)", auth: true, params: echoId, body: ReportSchema, responses: { 201: v.strictObject({ reported: v.literal(true) }) } },
  { route: "echo/:id/edit", method: "PATCH", tag: "echos", summary: "Edit one's own echo: the whole new version (text, tags, warning), as a post takes it; the replaced version goes to its history (at most 50 edits)", auth: true, params: echoId, body: PostEchoSchema, responses: { 200: echo } },
  { route: "echo/:id/history", method: "GET", tag: "echos", summary: "An echo's earlier versions, newest first, 20 a page", auth: true, params: echoId, query: HistoryQuerySchema, responses: { 200: r.EchoHistorySchema } },
  { route: "echo/:id/repost", method: "POST", tag: "echos", summary: "Repost an echo to one's followers' Following (once; idempotent; refused across a block)", auth: true, params: echoId, responses: { 200: r.RepostStateSchema } },
  { route: "echo/:id/repost", method: "DELETE", tag: "echos", summary: "Undo one's repost (idempotent): it leaves the timelines", auth: true, params: echoId, responses: { 200: r.RepostStateSchema } },
  { route: "echo/:id/reposts", method: "GET", tag: "echos", summary: "Who reposted an echo, newest first, 20 a page by cursor", auth: true, params: echoId, query: v.object({ cursor: cursorParam }), responses: { 200: r.RepostersPageSchema } },
  { route: "echo/:id/quote", method: "POST", tag: "echos", summary: "Quote an echo: an echo of one's own with the quoted one embedded (the same fields and limits as a post; the post limit counts quotes)", auth: true, params: echoId, body: PostEchoSchema, responses: { 201: echo } },
  { route: "echo/:id/quotes", method: "GET", tag: "echos", summary: "The echos quoting an echo, newest first", auth: true, params: echoId, query: pageQuery, responses: { 200: r.EchoPageSchema } },
  { route: "echo/:id/share", method: "POST", tag: "echos", summary: "Count a share (once per user)", auth: true, params: echoId, responses: { 200: v.strictObject({ shares: v.pipe(v.number(), v.integer()) }) } },

  { route: "scroll/create", method: "POST", tag: "scrolls", summary: "Create a scroll: a curation, or a feed with its rules", auth: true, body: CreateScrollSchema, responses: { 201: scroll } },
  { route: "scroll/all", method: "GET", tag: "scrolls", summary: "One's own scrolls and the public ones one follows, newest first: with no parameters all of them up to 95; a cursor pages beyond (limit 1–95, default 95)", auth: true, query: cursorQuery, responses: { 200: v.strictObject({ scrolls: v.array(r.ScrollSchema), pagination: r.CursorPaginationSchema }) } },
  { route: "scroll/preview", method: "POST", tag: "scrolls", summary: "A feed rule's first page and match count, unsaved", auth: true, query: pageQuery, body: PreviewSchema, responses: { 200: v.strictObject({ ...r.EchoPageSchema.entries, matchCount: v.number(), matchCountExact: v.boolean() }) } },
  { route: "scroll/:id", method: "GET", tag: "scrolls", summary: "One scroll (a private one only for its creator)", auth: true, params: scrollId, responses: { 200: scroll } },
  { route: "scroll/:id", method: "PATCH", tag: "scrolls", summary: "Edit one's own scroll", auth: true, params: scrollId, body: UpdateScrollSchema, responses: { 200: scroll } },
  { route: "scroll/:id", method: "DELETE", tag: "scrolls", summary: "Delete one's own scroll", auth: true, params: scrollId, responses: { 200: r.DeletedSchema } },
  { route: "scroll/:id/add-echo", method: "POST", tag: "scrolls", summary: "Add an echo to one's own curation", auth: true, params: scrollId, body: AddEchoSchema, responses: { 200: v.strictObject({ scroll: r.ScrollSchema, alreadyInScroll: v.boolean() }) } },
  { route: "scroll/:id/remove-echo/:echoId", method: "DELETE", tag: "scrolls", summary: "Remove an echo from one's own curation", auth: true, params: { ...scrollId, echoId: "The echo's id" }, responses: { 200: scroll } },
  { route: "scroll/:id/echos", method: "GET", tag: "scrolls", summary: "A scroll's echos: a curation's as added, a feed's by its rules", auth: true, params: scrollId, query: pageQuery, responses: { 200: r.ScrollEchoPageSchema } },
  { route: "scroll/:id/follow", method: "POST", tag: "scrolls", summary: "Follow a public scroll of another user (idempotent)", auth: true, params: scrollId, responses: { 200: scroll } },
  { route: "scroll/:id/follow", method: "DELETE", tag: "scrolls", summary: "Unfollow a scroll (idempotent)", auth: true, params: scrollId, responses: { 200: scroll } },
  { route: "scroll/:id/why/:echoId", method: "GET", tag: "scrolls", summary: "Whether an echo is in a scroll, and which rules it meets", auth: true, params: { ...scrollId, echoId: "The echo's id" }, responses: { 200: r.WhySchema } },
  { route: "scroll/:id/fork", method: "POST", tag: "scrolls", summary: "Fork a feed: the viewer's own copy of its rules", auth: true, params: scrollId, responses: { 201: scroll } },

  { route: "search/users", method: "GET", tag: "search", summary: "Users whose name starts with q", auth: true, query: SearchUsersQuerySchema, responses: { 200: v.strictObject({ users: v.array(r.UserRefSchema) }) } },
  { route: "search/echos", method: "GET", tag: "search", summary: "Echos by words, #tags and @users, ranked, with highlights", auth: true, query: v.object({ ...SearchEchosQuerySchema.entries, ...pageQuery.entries }), responses: { 200: r.EchoPageSchema } },

  { route: "community/scrolls/public/:type", method: "GET", tag: "community", summary: "The newest public feeds or curations (a bare list; at most 80, whatever limit asks)", auth: true, params: { type: "feed or curation" }, query: CommunityLimitSchema, responses: { 200: v.array(r.ScrollSchema) } },
  { route: "community/tags", method: "GET", tag: "community", summary: "Trending tags (a bare list)", auth: true, query: CommunityLimitSchema, responses: { 200: v.array(r.TagSchema) } },
  { route: "community/echos/popular", method: "GET", tag: "community", summary: "Popular echos of a period, by likes, comments, shares or recency (a bare list)", auth: true, query: PopularQuerySchema, responses: { 200: v.array(r.EchoSchema) } },

  { route: "profile/me", method: "GET", tag: "profiles", summary: "One's own profile", auth: true, responses: { 200: r.ProfileSchema } },
  { route: "profile/me", method: "PATCH", tag: "profiles", summary: "Edit one's bio and email", auth: true, body: UpdateProfileSchema, responses: { 200: r.ProfileSchema } },
  { route: "profile/me", method: "DELETE", tag: "profiles", summary: "Delete one's account and all it made (the password confirms; clears the cookie)", auth: true, body: DeleteAccountSchema, responses: { 200: r.OkSchema } },
  { route: "profile/me/export", method: "GET", tag: "profiles", summary: "Download my data: one streamed JSON file", auth: true, responses: { 200: r.ExportSchema } },
  { route: "profile/user/:userId", method: "GET", tag: "profiles", summary: "A user's profile", auth: true, params: userId, responses: { 200: r.ProfileSchema } },
  { route: "profile/user/:userId/followers", method: "GET", tag: "profiles", summary: "A user's followers, newest follow first", auth: true, params: userId, query: pageQuery, responses: { 200: v.strictObject({ followers: v.array(r.UserRefSchema), pagination: r.PaginationSchema }) } },
  { route: "profile/user/:userId/following", method: "GET", tag: "profiles", summary: "Whom a user follows, newest follow first", auth: true, params: userId, query: pageQuery, responses: { 200: v.strictObject({ following: v.array(r.UserRefSchema), pagination: r.PaginationSchema }) } },
  { route: "profile/user/:userId/echos", method: "GET", tag: "profiles", summary: "A user's echos, newest first", auth: true, params: userId, query: pageQuery, responses: { 200: r.EchoPageSchema } },
  { route: "profile/user/:userId/scrolls", method: "GET", tag: "profiles", summary: "A user's scrolls: created (public ones, unless one's own) or saved; at most 80 a page", auth: true, params: userId, query: v.object({ ...ProfileScrollsQuerySchema.entries, ...pageQuery.entries }), responses: { 200: scrollPage } },
  { route: "profile/user/:userId/follow", method: "POST", tag: "profiles", summary: "Follow a user (idempotent); answers their profile", auth: true, params: userId, responses: { 200: r.ProfileSchema } },
  { route: "profile/user/:userId/block", method: "GET", tag: "profiles", summary: "Whether the viewer blocks or mutes the user", auth: true, params: userId, responses: { 200: r.SafetyRelationSchema } },
  { route: "profile/user/:userId/block", method: "POST", tag: "profiles", summary: "Block a user (idempotent): neither sees the other's echos; follows both ways end; they cannot follow, like, mention or reply to you", auth: true, params: userId, responses: { 200: r.SafetyRelationSchema } },
  { route: "profile/user/:userId/block", method: "DELETE", tag: "profiles", summary: "Unblock a user (idempotent)", auth: true, params: userId, responses: { 200: r.SafetyRelationSchema } },
  { route: "profile/user/:userId/mute", method: "POST", tag: "profiles", summary: "Mute a user: their echos and notifications leave your lists, silently; for a duration or until unmuted (again: the new duration replaces the old)", auth: true, params: userId, body: MuteSchema, responses: { 200: r.SafetyRelationSchema } },
  { route: "profile/user/:userId/mute", method: "DELETE", tag: "profiles", summary: "Unmute a user (idempotent)", auth: true, params: userId, responses: { 200: r.SafetyRelationSchema } },
  { route: "profile/me/blocks", method: "GET", tag: "profiles", summary: "The accounts one blocks, newest first, by cursor", auth: true, query: v.object({ limit: pageQuery.entries.limit, cursor: cursorParam }), responses: { 200: r.SafetyPageSchema } },
  { route: "profile/me/mutes", method: "GET", tag: "profiles", summary: "The accounts one mutes (mutes that have not ended), newest first, by cursor", auth: true, query: v.object({ limit: pageQuery.entries.limit, cursor: cursorParam }), responses: { 200: r.SafetyPageSchema } },
  { route: "profile/me/muted-words", method: "GET", tag: "profiles", summary: "One's muted words and #tags that have not ended, newest first (at most 100: one page)", auth: true, responses: { 200: r.MutedWordListSchema } },
  { route: "profile/me/muted-words", method: "POST", tag: "profiles", summary: "Mute a phrase or #tag: hide or warn, in which lists, for how long (the same phrase again replaces its options)", auth: true, body: AddMutedWordSchema, responses: { 200: r.MutedWordSchema } },
  { route: "profile/me/muted-words/:wordId", method: "DELETE", tag: "profiles", summary: "Unmute a word (idempotent)", auth: true, params: { wordId: "A muted word's id" }, responses: { 200: r.OkSchema } },
  { route: "profile/user/:userId/follow", method: "DELETE", tag: "profiles", summary: "Unfollow a user (idempotent); answers their profile", auth: true, params: userId, responses: { 200: r.ProfileSchema } },

  { route: "notifications", method: "GET", tag: "notifications", summary: "The viewer's notification groups, newest first, by cursor", auth: true, query: v.object({ cursor: cursorParam }), responses: { 200: r.NotificationPageSchema } },
  { route: "notifications/unread", method: "GET", tag: "notifications", summary: "The viewer's unread count, as the bell shows it (one row read)", auth: true, responses: { 200: v.strictObject({ unreadCount: v.number() }) } },
  { route: "notifications/read", method: "POST", tag: "notifications", summary: "Mark all notifications read", auth: true, responses: { 200: v.strictObject({ unreadCount: v.literal(0) }) } },

  {
    route: "live",
    method: "GET",
    tag: "echos",
    summary: "New echos as they are posted: upgrades to a WebSocket (exactly one of scroll, tag, following, all, echo, edits)",
    auth: true,
    query: LiveQuerySchema.pipe[0],
    responses: {},
    upgrade: 'Switching Protocols: each new matching echo is one JSON text message `{ "type": "echo", "echo": Echo }`; an edit `{ "type": "edit", "echo": … }`, an echo the edit hides from the reader `{ "type": "hide", "echo": { _id } }`, a deletion `{ "type": "delete", "echo": { _id } }` (decision 016)',
  },

  ...MODERATION_OPERATIONS,

  { route: "openapi.json", method: "GET", tag: "meta", summary: "This document: the API's contract in OpenAPI 3.1", auth: false, responses: { 200: v.looseObject({ openapi: v.literal("3.1.0") }) } },
];
