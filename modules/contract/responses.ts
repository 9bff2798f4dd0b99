// The response shapes of the public API as valibot schemas: the OpenAPI document's components
// (GET /api/openapi.json) and what the API tests validate every answer against. The services
// keep their own TypeScript types; the checks at the bottom make each type and its schema agree
// both ways, so a field added, dropped or retyped on one side fails the typecheck.
import * as v from "valibot";
import type { Tag } from "../community/index";
import type { Echo, EchoPage, RepostersPage, Thread } from "../echo/index";
import type { Notification, NotificationPage } from "../notification/index";
import type { MutedWord, Profile, SafetyPage, SafetyRelation, UserHit } from "../profile/index";
import { MUTE_CONTEXTS } from "../shared/index";
import type { Scroll, WhyAnswer } from "../scroll/index";
import { NOTIFICATION_KINDS } from "../notification/index";
import { SCROLL_TYPES, MATCH_TYPES, SORTS, TIME_RANGES } from "../scroll/index";

const id = v.pipe(v.string(), v.description("An id: 26 characters, sortable by creation time"));
const isoTime = v.pipe(v.string(), v.description("A time in ISO 8601 (UTC)"));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const ErrorSchema = v.pipe(
  v.strictObject({ error: v.string(), message: v.string() }),
  v.description("Every error: `error` and `message` carry the same sentence, which names the field at fault"),
);

export const UserRefSchema = v.strictObject({ _id: id, userName: v.string() });
export const TagRefSchema = v.pipe(v.strictObject({ _id: v.string(), name: v.string() }), v.description("A tag: its `_id` is its normalised name"));

export const UserSchema = v.pipe(
  v.strictObject({
    _id: id,
    userName: v.string(),
    email: v.nullable(v.string()),
    bio: v.string(),
    createdAt: isoTime,
    followersCount: count,
    followingCount: count,
  }),
  v.description("The signed-in user (sign-up, login, GET /auth/me)"),
);

export const ProfileSchema = v.strictObject({
  _id: id,
  userName: v.string(),
  bio: v.string(),
  email: v.pipe(v.optional(v.nullable(v.string())), v.description("Only on one's own profile")),
  createdAt: isoTime,
  echosCount: count,
  scrollsCount: count,
  followersCount: count,
  followingCount: count,
  isFollowing: v.boolean(),
  isMe: v.boolean(),
});

export const HighlightsSchema = v.pipe(
  v.strictObject({
    content: v.array(v.tuple([count, count])),
    tags: v.array(v.string()),
  }),
  v.description("Search results only: [start, end) UTF-16 offsets of the matched words in `content`, and the tags matched"),
);

/** A quote's embedded echo (decision 027). */
export const QuotedEchoSchema = v.pipe(
  v.variant("state", [
    v.strictObject({ _id: id, state: v.literal("ok"), author: UserRefSchema, content: v.string(), warning: v.optional(v.string()), createdAt: isoTime }),
    v.strictObject({ _id: id, state: v.literal("deleted") }),
    v.strictObject({ _id: id, state: v.literal("unavailable") }),
  ]),
  v.description("The quoted echo: in full (`ok`; with its content warning, if any), `deleted` (\"This echo was deleted\") or `unavailable` (its author is hidden from the viewer: a block either way, a mute)"),
);

export const RepostSchema = v.pipe(
  v.strictObject({ _id: id, by: UserRefSchema, createdAt: isoTime }),
  v.description("Following only: this entry is `by`'s repost of the echo (its `_id` is the entry's place in the timeline)"),
);

export const EchoSchema = v.strictObject({
  _id: id,
  content: v.string(),
  author: UserRefSchema,
  tags: v.array(TagRefSchema),
  likes: count,
  isLiked: v.boolean(),
  comments: v.pipe(v.array(v.never()), v.description("Always empty: the replies are read by GET /echo/{id}/thread")),
  commentsCount: v.pipe(count, v.description("How many replies the echo has")),
  shares: count,
  createdAt: isoTime,
  parentId: v.pipe(v.nullable(id), v.description("The echo this one replies to; null on a top-level echo (decision 024)")),
  highlights: v.optional(HighlightsSchema),
  editedAt: v.optional(v.pipe(isoTime, v.description("When the author last edited it; absent if never"))),
  warning: v.optional(v.pipe(v.string(), v.description("The content warning: show it, and the text and tags only when the reader asks"))),
  reposts: v.pipe(count, v.description("How many people reposted it")),
  quotes: v.pipe(count, v.description("How many echos quote it")),
  isReposted: v.pipe(v.boolean(), v.description("The viewer reposted it")),
  quoted: v.optional(QuotedEchoSchema),
  repost: v.optional(RepostSchema),
  mutedWord: v.optional(v.pipe(v.string(), v.description("The viewer's muted word (warn) this echo matches: show it collapsed with the word, the echo on request"))),
});

/** GET /echo/{id}/reposts (decision 027). */
export const RepostersPageSchema = v.strictObject({
  users: v.array(v.strictObject({ _id: id, userName: v.string(), repostedAt: isoTime })),
  pagination: v.strictObject({ limit: count, hasMore: v.boolean(), nextCursor: v.pipe(v.nullable(v.string()), v.description("Pass as `cursor` for the next page; null on the last")) }),
});

/** POST and DELETE /echo/{id}/repost. */
export const RepostStateSchema = v.strictObject({ reposts: count, isReposted: v.boolean() });

const ThreadItemSchema = v.strictObject({
  _id: id,
  parentId: v.nullable(id),
  echo: v.pipe(v.nullable(EchoSchema), v.description("null where the echo was deleted: the thread shows \"This echo was deleted\" in its place")),
  hidden: v.pipe(v.optional(v.literal(true)), v.description("`echo` is null because its author is hidden from the viewer (a block either way, a mute)")),
});

/** GET /echo/{id}/thread (decision 024). */
export const ThreadSchema = v.strictObject({
  echo: ThreadItemSchema,
  ancestors: v.pipe(v.array(ThreadItemSchema), v.description("The chain above the echo, oldest first, at most 10 (the echo's parent last)")),
  earlierId: v.pipe(v.nullable(id), v.description("The chain goes on above the first ancestor: this echo's thread shows the rest")),
  replies: v.pipe(
    v.array(v.strictObject({ ...ThreadItemSchema.entries, replies: v.array(ThreadItemSchema), moreReplies: v.boolean() })),
    v.description("The echo's replies, oldest first, 10 a page; each with its first 2 replies, and whether it has more (its own thread shows them)"),
  ),
  pagination: v.strictObject({ limit: count, hasMore: v.boolean(), nextCursor: v.pipe(v.nullable(v.string()), v.description("Pass as `cursor` for the next page; null on the last")) }),
});

const nextCursor = v.pipe(v.nullable(v.string()), v.description("Pass as `cursor` for the next page; null on the last"));

export const PaginationSchema = v.pipe(
  v.strictObject({ page: count, limit: count, total: count, totalPages: count, hasMore: v.boolean(), nextCursor }),
  v.description("A feed's `total` and a time-windowed tag list's are lower bounds (decision 007)"),
);
/** Lists paged by cursor only (one's scrolls, notifications). */
export const CursorPaginationSchema = v.strictObject({ limit: count, hasMore: v.boolean(), nextCursor });

/** GET /api/echo/{id}/history (decision 025). */
export const EchoHistorySchema = v.strictObject({
  versions: v.array(
    v.strictObject({
      version: v.pipe(count, v.description("0 is the echo as posted")),
      content: v.string(),
      tags: v.array(v.string()),
      warning: v.optional(v.string()),
      createdAt: v.pipe(isoTime, v.description("When this version was written")),
    }),
  ),
  pagination: CursorPaginationSchema,
});

export const EchoPageSchema = v.strictObject({ echos: v.array(EchoSchema), pagination: PaginationSchema });
/** A scroll's page: a feed with an index says whether it is built (decision 020). */
export const ScrollEchoPageSchema = v.strictObject({
  echos: v.array(EchoSchema),
  pagination: PaginationSchema,
  feedIndex: v.optional(
    v.pipe(
      v.picklist(["building", "ready"]),
      v.description("A feed whose rule is indexed: `building` while its index is built (the page comes from the rule engine and may be short), then `ready`"),
    ),
  ),
});

const FeedConfigSchema = v.strictObject({
  tagMatchType: v.picklist(MATCH_TYPES),
  includedTags: v.array(TagRefSchema),
  excludedTags: v.array(TagRefSchema),
  authors: v.array(UserRefSchema),
  sortBy: v.picklist(SORTS),
  sortTimeRange: v.picklist(TIME_RANGES),
  excludeLikedEchos: v.boolean(),
  replies: v.boolean(),
  dateRange: v.nullable(v.strictObject({ startDate: v.nullable(v.string()), endDate: v.nullable(v.string()) })),
});

export const ScrollSchema = v.strictObject({
  _id: id,
  name: v.string(),
  description: v.string(),
  type: v.picklist(SCROLL_TYPES),
  isPrivate: v.boolean(),
  creator: UserRefSchema,
  savedBy: v.pipe(v.array(id), v.description("The viewer's id when the viewer follows the scroll")),
  isFollowing: v.boolean(),
  followersCount: count,
  echosCount: count,
  createdAt: isoTime,
  feedConfig: v.pipe(v.nullable(FeedConfigSchema), v.description("A feed's rules; null for a curation")),
  forkCount: count,
  forkedFrom: v.nullable(v.strictObject({ _id: id, name: v.string(), creator: UserRefSchema })),
});

export const TagSchema = v.strictObject({
  _id: v.string(),
  name: v.string(),
  count,
  recentEchosCount: count,
  createdAt: isoTime,
  description: v.string(),
});

export const NotificationSchema = v.strictObject({
  _id: v.pipe(v.string(), v.description("`<kind>:<group>`: stable while the group exists")),
  kind: v.picklist(NOTIFICATION_KINDS),
  actor: UserRefSchema,
  actorCount: count,
  echo: v.nullable(v.strictObject({ _id: id, excerpt: v.string() })),
  scroll: v.nullable(v.strictObject({ _id: id, name: v.string() })),
  unread: v.boolean(),
  updatedAt: isoTime,
});

export const NotificationPageSchema = v.strictObject({
  notifications: v.array(NotificationSchema),
  unreadCount: count,
  pagination: CursorPaginationSchema,
});

export const WhySchema = v.strictObject({
  inFeed: v.boolean(),
  reasons: v.array(v.strictObject({ rule: v.string(), passed: v.boolean(), text: v.string() })),
});

/** Where the viewer stands with a user (issue 32): block and mute, and when a mute ends. */
export const SafetyRelationSchema = v.strictObject({
  userId: id,
  blocked: v.boolean(),
  muted: v.boolean(),
  mutedUntil: v.pipe(v.nullable(isoTime), v.description("When the mute ends by itself; null: until unmuted (or not muted)")),
});
export const MutedWordSchema = v.strictObject({
  _id: id,
  phrase: v.string(),
  action: v.picklist(["hide", "warn"]),
  contexts: v.array(v.picklist(MUTE_CONTEXTS)),
  createdAt: isoTime,
  expiresAt: v.pipe(v.nullable(isoTime), v.description("When the word ends by itself; null: until removed")),
});
export const MutedWordListSchema = v.strictObject({ words: v.array(MutedWordSchema) });
export const SafetyPageSchema = v.strictObject({
  users: v.array(
    v.strictObject({
      _id: id,
      userName: v.string(),
      since: isoTime,
      until: v.pipe(v.nullable(isoTime), v.description("A mute's end; null for a block or a mute until unmuted")),
    }),
  ),
  pagination: CursorPaginationSchema,
});

/** `{ ok: true }`: health, logout, a password change, an account deletion. */
export const OkSchema = v.strictObject({ ok: v.literal(true) });
export const DeletedSchema = v.strictObject({ deleted: v.literal(true), _id: v.string() });
export const LikeSchema = v.strictObject({ likes: count, isLiked: v.boolean() });

/** GET /profile/me/export: one JSON file of everything the user made (docs/product-notes.md "Your data"). */
export const ExportSchema = v.strictObject({
  format: v.literal("echo-export/1"),
  exportedAt: isoTime,
  profile: v.strictObject({ _id: id, userName: v.string(), bio: v.string(), email: v.nullable(v.string()), createdAt: isoTime }),
  echos: v.array(v.strictObject({ _id: id, content: v.string(), tags: v.array(v.string()), createdAt: isoTime, likes: count, parentId: v.pipe(v.nullable(id), v.description("The echo it replies to; null on a top-level echo")),
    quoteOfId: v.pipe(v.nullable(id), v.description("The echo it quotes; null if it quotes none (decision 027)")),
    warning: v.pipe(v.nullable(v.string()), v.description("Its content warning; null if none")) })),
  likes: v.array(v.strictObject({ echoId: id, likedAt: isoTime })),
  reposts: v.pipe(v.array(v.strictObject({ echoId: id, repostedAt: isoTime })), v.description("The echos the user reposted, oldest first (decision 027)")),
  scrolls: v.array(v.looseObject({ _id: id, name: v.string(), type: v.picklist(SCROLL_TYPES) })),
  following: v.array(v.strictObject({ _id: id, userName: v.string(), followedAt: isoTime })),
  followedScrolls: v.array(v.strictObject({ _id: id, name: v.nullable(v.string()), followedAt: isoTime })),
  /**
   * What producing the file cost D1, the whole stream included: only where the server exposes
   * its D1 stats (EXPOSE_D1_STATS=1, test and benchmark servers), where the Server-Timing header,
   * sent before the body, can only count what ran before the first byte.
   */
  d1: v.optional(v.strictObject({ roundTrips: count, rowsRead: count, rowsWritten: count })),
});

// Each service type and its schema agree both ways (see the top of the file).
type Agrees<T, S extends v.GenericSchema> = [T] extends [v.InferOutput<S>] ? ([v.InferOutput<S>] extends [T] ? true : false) : false;
const agree = <_ extends true>() => undefined;
agree<Agrees<Echo, typeof EchoSchema>>();
agree<Agrees<EchoPage, typeof EchoPageSchema>>();
agree<Agrees<Thread, typeof ThreadSchema>>();
agree<Agrees<RepostersPage, typeof RepostersPageSchema>>();
agree<Agrees<Scroll, typeof ScrollSchema>>();
agree<Agrees<Profile, typeof ProfileSchema>>();
agree<Agrees<UserHit, typeof UserRefSchema>>();
agree<Agrees<Tag, typeof TagSchema>>();
agree<Agrees<Notification, typeof NotificationSchema>>();
agree<Agrees<NotificationPage, typeof NotificationPageSchema>>();
agree<Agrees<WhyAnswer, typeof WhySchema>>();
agree<Agrees<SafetyRelation, typeof SafetyRelationSchema>>();
agree<Agrees<SafetyPage, typeof SafetyPageSchema>>();
agree<Agrees<MutedWord, typeof MutedWordSchema>>();
