// The one Drizzle schema of the app. drizzle-kit generates migrations/ from it; every index
// names the query it serves. Times are integer milliseconds since the epoch (UTC).
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    userName: text("user_name").notNull(),
    passwordHash: text("password_hash").notNull(),
    bio: text("bio").notNull().default(""),
    email: text("email"),
    createdAt: integer("created_at").notNull(),
    echosCount: integer("echos_count").notNull().default(0),
    scrollsCount: integer("scrolls_count").notNull().default(0),
    // the public ones among them: what other people see on the profile (trigger-kept)
    publicScrollsCount: integer("public_scrolls_count").notNull().default(0),
    followersCount: integer("followers_count").notNull().default(0),
    followingCount: integer("following_count").notNull().default(0),
    // notifications (migrations/0014): the newest action the user marked read, and how many
    // groups are newer than it (trigger-kept)
    notificationsReadAt: integer("notifications_read_at").notNull().default(0),
    unreadNotifications: integer("unread_notifications").notNull().default(0),
    // set when the account is deleted (migration 0030, decision 032): the account is gone for
    // everyone at once, and its rows leave through the change stream in bounded steps
    deletedAt: integer("deleted_at"),
    // moderation (migrations/0028, decision 029): a moderator (made from the command line,
    // `npm run moderator`), and what moderators did to the account: 0 nothing, 1 limited (its
    // echos leave public lists), 2 suspended (cannot sign in, content hidden; deleted by the cron
    // 30 days after suspended_at unless lifted)
    isAdmin: integer("is_admin").notNull().default(0),
    modState: integer("mod_state").notNull().default(0),
    suspendedAt: integer("suspended_at"),
  },
  (t) => [
    // login / signup-conflict lookup by name, case-insensitive: "Ann" and "ann" are one account;
    // also user search's prefix matches (a NOCASE range, modules/profile/search.server.ts)
    uniqueIndex("users_user_name_nocase").on(sql`${t.userName} COLLATE NOCASE`),
    // the cron: suspensions past their 30 days, whose accounts it deletes (decision 029)
    index("users_suspended_at").on(t.suspendedAt).where(sql`suspended_at IS NOT NULL`),
  ],
);
// User and scroll search's substring matches live outside Drizzle: migrations/0015_name_search.sql
// creates the trigram FTS5 tables `user_name_search` (name, uid) and `scroll_search` (name,
// description, sid) and the triggers on `users` and `scrolls` that keep them in step
// (drizzle-kit does not model virtual tables).

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    // cron: prune sessions past their absolute lifetime
    index("sessions_expires_at").on(t.expiresAt),
    // revoke every session of a user (password change, account removal)
    index("sessions_user_id").on(t.userId),
  ],
);

export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [
    // the counter upsert: one row per (key, fixed window)
    primaryKey({ columns: [t.key, t.windowStart] }),
    // cron: prune finished windows
    index("rate_limits_window_start").on(t.windowStart),
  ],
);

// ── Echos ──────────────────────────────────────────────────────────────────────────────────
// Counters (likes_count, shares_count, tags.echo_count, users.echos_count, echo_tags.likes_count)
// are kept exact by triggers in migrations/0002_counters.sql: same transaction as the write.

// Echo search lives outside Drizzle: migrations/0013_echo_search.sql creates the FTS5 table
// `echo_search` (body, tags, author, eid), the view `echo_search_source` it is filled from, and
// the triggers on `echos` that keep it in step (drizzle-kit models neither virtual tables nor views).
export const echos = sqliteTable(
  "echos",
  {
    // time-sortable id (modules/shared/ids.ts): ORDER BY id is creation order, ties impossible
    id: text("id").primaryKey(),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    // the echo's normalised tag names as a JSON array (an edit rewrites it), so the list page
    // needs no join to show tags
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at").notNull(),
    likesCount: integer("likes_count").notNull().default(0),
    sharesCount: integer("shares_count").notNull().default(0),
    // the reply count (decision 024): trigger-kept (migrations/0021_replies.sql)
    commentsCount: integer("comments_count").notNull().default(0),
    // edits (migrations/0022, decision 025): when the text last changed (null: never), how many
    // times (the number of rows in echo_edits, capped at MAX_EDITS), and the optional content
    // warning that hides the text until the reader opens it
    editedAt: integer("edited_at"),
    editsCount: integer("edits_count").notNull().default(0),
    warning: text("warning"),
    // a reply's parent and its conversation's first echo (null on a top-level echo). No foreign
    // key: a deleted parent leaves its replies in place, and the thread shows "This echo was
    // deleted" where it was (echo_tombstones keeps its place in the chain).
    parentId: text("parent_id"),
    rootId: text("root_id"),
    // reposts and quotes (decision 027): how many people reposted it and how many echos quote it
    // (trigger-kept, migrations/0026), and the echo this one quotes (null: not a quote). No
    // foreign key: a quote outlives the echo it quotes ("This echo was deleted" on its card).
    repostsCount: integer("reposts_count").notNull().default(0),
    quotesCount: integer("quotes_count").notNull().default(0),
    quoteOfId: text("quote_of_id"),
    // the quoted echo's author's name, kept at quote time: the card's embed then reads the quoted
    // echo's row and not its author's (decision 027, "Pages sized by rows per echo"); NULL on an
    // echo that quotes nothing, and on quotes written outside postEcho (the read falls back)
    quotedName: text("quoted_name"),
    // muted words (migration 0027, decision 028): the echo's folded words, warning and tags, each
    // part fenced, that a viewer's muted phrases are found in with one instr each (shared/mute-text)
    muteText: text("mute_text"),
  },
  (t) => [
    // GET /echo/all?user= and profile echos: an author's echos newest first
    index("echos_author_id").on(t.authorId, t.id),
    // the thread read: an echo's replies in conversation order, by cursor (partial: top-level
    // echos write no entry)
    index("echos_parent").on(t.parentId, t.id).where(sql`parent_id IS NOT NULL`),
    // a whole conversation in order (one range per root), for what reads a thread as a whole
    index("echos_root").on(t.rootId, t.id).where(sql`root_id IS NOT NULL`),
    // an echo's quotes newest first, by cursor (partial: most echos quote nothing)
    index("echos_quote").on(t.quoteOfId, t.id).where(sql`quote_of_id IS NOT NULL`),
    // most-liked over all echos (popular, tag-less most-liked feeds): likes then newest
    index("echos_likes").on(t.likesCount, t.id),
    // most-liked feeds with an author rule: one author's echos by likes then newest
    index("echos_author_likes").on(t.authorId, t.likesCount, t.id),
    // feeds without replies (a rule's `replies` off, migration 0029) that name no tag or author:
    // top-level echos in id or likes order, so every entry of the stream matches (partial: a
    // reply writes no entry)
    index("echos_top").on(t.id).where(sql`parent_id IS NULL`),
    index("echos_top_likes").on(t.likesCount, t.id).where(sql`parent_id IS NULL`),
  ],
);

export const tags = sqliteTable(
  "tags",
  {
    // the normalised name is the tag's id: lower case, no '#', [a-z0-9_-] and other letters
    name: text("name").primaryKey(),
    echoCount: integer("echo_count").notNull().default(0),
    recentCount: integer("recent_count").notNull().default(0),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // tag browser "Most Popular"
    index("tags_echo_count").on(t.echoCount),
    // trending tags: recent use, then all-time use
    index("tags_trending").on(t.recentCount, t.echoCount),
  ],
);

export const echoTags = sqliteTable(
  "echo_tags",
  {
    tag: text("tag")
      .notNull()
      .references(() => tags.name),
    echoId: text("echo_id")
      .notNull()
      .references(() => echos.id, { onDelete: "cascade" }),
    // copy of echos.likes_count (trigger-kept) so a tag's most-liked page is an index walk
    likesCount: integer("likes_count").notNull().default(0),
    // UTC day of the echo (created_at / 86,400,000): feeds tag_days for recent counts
    day: integer("day").notNull().default(0),
    // copy of the echo's tags (an edit rewrites it, decision 025): a feed tests a candidate's other tags
    // and exclusions inside the index entry it already read (decision 008)
    tags: text("tags").notNull().default("[]"),
    // 1 when the echo is a reply (migration 0029): the partial indexes below leave replies out
    // (a reply stays a reply: never rewritten)
    reply: integer("reply").notNull().default(0),
    // copy of echos.author_id (migration 0035; an echo keeps its author): a feed's tag stream
    // steps over an author the viewer hides on the index entry it already read, without reading
    // the echo (decision 026, "Full pages for heavy hiders")
    authorId: text("author_id").notNull().default(""),
  },
  (t) => [
    // one link per tag and echo
    primaryKey({ columns: [t.tag, t.echoId] }),
    // delete cascade and like triggers: the tags of one echo
    index("echo_tags_echo_id").on(t.echoId),
    // /echo/tag/{name} newest|oldest and feed streams by tag: a tag's echos in id order, with
    // their tags (covering)
    index("echo_tags_tag_echo").on(t.tag, t.echoId, t.tags, t.authorId),
    // /echo/tag/{name}?orderBy=likes and most-liked feed streams: by likes, then newest (covering)
    index("echo_tags_tag_likes_tags").on(t.tag, t.likesCount, t.echoId, t.tags, t.authorId),
    // the same, of top-level echos only (partial, migration 0029): a feed without replies walks
    // them, so every entry it reads matches and its pages stay the plain merge
    index("echo_tags_top_echo").on(t.tag, t.echoId, t.tags, t.authorId).where(sql`reply = 0`),
    index("echo_tags_top_likes").on(t.tag, t.likesCount, t.echoId, t.tags, t.authorId).where(sql`reply = 0`),
  ],
);

// An echo's earlier versions (decision 025): version n is the echo as it was before its edit
// n + 1 (version 0 the posted one), with the time it was written; removed with the echo.
export const echoEdits = sqliteTable(
  "echo_edits",
  {
    echoId: text("echo_id")
      .notNull()
      .references(() => echos.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    content: text("content").notNull(),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
    warning: text("warning"),
    createdAt: integer("created_at").notNull(),
  },
  // the history page: one echo's versions, newest first (keyset on version)
  (t) => [primaryKey({ columns: [t.echoId, t.version] })],
);

export const likes = sqliteTable(
  "likes",
  {
    echoId: text("echo_id")
      .notNull()
      .references(() => echos.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // like/unlike idempotence, like count of an echo
    primaryKey({ columns: [t.echoId, t.userId] }),
    // isLiked hydration for a page and "hide what I liked" feeds: a user's likes by echo
    index("likes_user_id").on(t.userId, t.echoId),
  ],
);

/**
 * Reposts (decision 027): one per user and echo. `id` is a time-ordered id from the echos' id
 * space: the repost's entry in the followers' timelines is this id, so it sorts by when it was
 * reposted among the echos posted meanwhile.
 */
export const reposts = sqliteTable(
  "reposts",
  {
    id: text("id").primaryKey(),
    echoId: text("echo_id")
      .notNull()
      .references(() => echos.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    // the reposter's name, kept at repost time: a Following page names the reposter without
    // reading their users row (decision 027, "Pages sized by rows per echo"); NULL falls back
    userName: text("user_name"),
  },
  (t) => [
    // once per user and echo; isReposted hydration; an account's cascade
    uniqueIndex("reposts_user_echo").on(t.userId, t.echoId),
    // who reposted an echo, newest first by cursor; an echo's cascade
    index("reposts_echo").on(t.echoId, t.id),
    // a follow's backfill and an unfollow's removal: an account's newest reposts (decision 027)
    index("reposts_user").on(t.userId, t.id),
  ],
);

export const shares = sqliteTable(
  "shares",
  {
    echoId: text("echo_id")
      .notNull()
      .references(() => echos.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // one share counted per user and echo, however often they share it
    primaryKey({ columns: [t.echoId, t.userId] }),
    // account deletion: a user's shares, a slice at a time (migration 0030)
    index("shares_user_id").on(t.userId, t.echoId),
  ],
);

export const reports = sqliteTable(
  "reports",
  {
    echoId: text("echo_id")
      .notNull()
      .references(() => echos.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // a user reports an echo once
    primaryKey({ columns: [t.echoId, t.userId] }),
    // account deletion: a user's reports, a slice at a time (migration 0030)
    index("reports_user_id").on(t.userId, t.echoId),
  ],
);

// An echo deleted while it had replies: its place in its thread (decision 024), so the chain above
// its replies still reads through "This echo was deleted". Written by trigger (0021_replies.sql).
export const echoTombstones = sqliteTable("echo_tombstones", {
  id: text("id").primaryKey(),
  parentId: text("parent_id"),
  rootId: text("root_id"),
  createdAt: integer("created_at").notNull(),
  deletedAt: integer("deleted_at").notNull(),
});

export const stats = sqliteTable("stats", {
  // single-row counters ('echos' = number of echos) so list totals never COUNT(*)
  key: text("key").primaryKey(),
  value: integer("value").notNull().default(0),
});

// ── Scrolls ────────────────────────────────────────────────────────────────────────────────

export const scrolls = sqliteTable(
  "scrolls",
  {
    id: text("id").primaryKey(),
    creatorId: text("creator_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    type: text("type", { enum: ["feed", "curation"] }).notNull(),
    isPrivate: integer("is_private", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    // feed rule (null for curations): JSON arrays bind as ONE parameter each (json_each), so a
    // rule of any size stays under D1's 100 bound parameters
    tagMatchType: text("tag_match_type", { enum: ["all", "any"] }).notNull().default("any"),
    includedTags: text("included_tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    excludedTags: text("excluded_tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    authors: text("authors", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    sortBy: text("sort_by", { enum: ["newestFirst", "oldestFirst", "mostLiked"] }).notNull().default("newestFirst"),
    sortTimeRange: text("sort_time_range", { enum: ["1day", "1month", "1year", "allTime"] }).notNull().default("allTime"),
    excludeLikedEchos: integer("exclude_liked_echos", { mode: "boolean" }).notNull().default(false),
    startDate: integer("start_date"),
    endDate: integer("end_date"),
    // whether the feed shows replies (migration 0029; off by default, decision 024)
    replies: integer("replies", { mode: "boolean" }).notNull().default(false),
    /** the canonical rule's key in feed_indexes (migration 0017): the index this feed reads */
    ruleKey: text("rule_key"),
    // trigger-kept (migrations/0004_scroll_counters.sql)
    followersCount: integer("followers_count").notNull().default(0),
    echosCount: integer("echos_count").notNull().default(0),
    // a fork's original (issue 16); cleared when the original is deleted
    forkedFrom: text("forked_from").references((): AnySQLiteColumn => scrolls.id, { onDelete: "set null" }),
    // trigger-kept (migrations/0011_scroll_forks.sql)
    forkCount: integer("fork_count").notNull().default(0),
    // What a scroll object shows of the names around it, stored with the scroll so that a list
    // reads one row per scroll (migrations/0016_scroll_names.sql; decision 007, "Scroll lists").
    // The creator's name: user names never change, and a creator's scrolls go with their account.
    creatorName: text("creator_name").notNull().default(""),
    // [[id, userName], …] of the rule's authors that exist, written with the rule (create, edit,
    // fork copies it); a deleted account's pair is removed by trigger (found through scroll_authors)
    authorNames: text("author_names", { mode: "json" }).$type<[string, string][]>().notNull().default(sql`'[]'`),
    // the original of a fork as its fork shows it: copied at fork time; its name and privacy
    // follow the original by trigger (its creator never changes)
    forkedName: text("forked_name"),
    forkedCreatorId: text("forked_creator_id"),
    forkedCreatorName: text("forked_creator_name"),
    forkedPrivate: integer("forked_private", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    // GET /scroll/all and profile scrolls: a creator's scrolls newest first
    index("scrolls_creator_id").on(t.creatorId, t.id),
    // /scrolls/feeds and /scrolls/curations: a creator's scrolls of one type newest first (migration 0024)
    index("scrolls_creator_type").on(t.creatorId, t.type, t.id),
    // community lists: public scrolls of a type, newest first
    index("scrolls_public_type").on(t.type, t.isPrivate, t.id),
    // deleting a scroll clears its forks' forked_from (without it, every delete scans all scrolls)
    index("scrolls_forked_from").on(t.forkedFrom),
    // the feed index's repair pass (migration 0017): scrolls of a rule key, feeds without one
    index("scrolls_rule_key").on(t.ruleKey),
  ],
);

export const scrollEchos = sqliteTable(
  "scroll_echos",
  {
    scrollId: text("scroll_id")
      .notNull()
      .references(() => scrolls.id, { onDelete: "cascade" }),
    echoId: text("echo_id")
      .notNull()
      .references(() => echos.id, { onDelete: "cascade" }),
    addedAt: integer("added_at").notNull(),
  },
  (t) => [
    // add twice is a no-op; remove one
    primaryKey({ columns: [t.scrollId, t.echoId] }),
    // a curation's echos newest-added first (ties by echo id)
    index("scroll_echos_added").on(t.scrollId, t.addedAt, t.echoId),
    // echo delete cascade: the curations holding an echo
    index("scroll_echos_echo_id").on(t.echoId),
  ],
);

export const scrollFollows = sqliteTable(
  "scroll_follows",
  {
    scrollId: text("scroll_id")
      .notNull()
      .references(() => scrolls.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // follow/unfollow idempotence and "does the viewer follow this scroll"
    primaryKey({ columns: [t.scrollId, t.userId] }),
    // GET /scroll/all: the scrolls a user follows
    index("scroll_follows_user_id").on(t.userId, t.scrollId),
  ],
);

// The rules naming an author (trigger-kept from scrolls.authors, migrations/0016): deleting an
// account finds the rules whose author_names hold its name without reading every rule.
export const scrollAuthors = sqliteTable(
  "scroll_authors",
  {
    // no foreign key: the account's deletion trigger reads these rows, then removes them
    authorId: text("author_id").notNull(),
    scrollId: text("scroll_id")
      .notNull()
      .references(() => scrolls.id, { onDelete: "cascade" }),
  },
  (t) => [
    // account deletion: the rules naming a user
    primaryKey({ columns: [t.authorId, t.scrollId] }),
    // scroll delete cascade and rule edits: a scroll's authors
    index("scroll_authors_scroll_id").on(t.scrollId),
  ],
);

// ── Profiles and community ─────────────────────────────────────────────────────────────────

export const userFollows = sqliteTable(
  "user_follows",
  {
    followerId: text("follower_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    followeeId: text("followee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // follow idempotence; GET …/following: whom a user follows
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    // GET …/followers: who follows a user
    index("user_follows_followee").on(t.followeeId, t.followerId),
  ],
);

// The Following timeline (docs/decisions/013-following-timeline.md): fan-out on write, one row
// per follower and echo, capped per owner (TIMELINE_CAP in modules/echo/timeline.server.ts).
// The migration makes it WITHOUT ROWID (drizzle cannot say so): two b-tree entries per row.
export const timelineEntries = sqliteTable(
  "timeline_entries",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // no foreign key (migration 0024): a deleted echo's rows leave through the change stream
    echoId: text("echo_id").notNull(),
  },
  (t) => [
    // GET /echo/following: one owner's entries newest first (keyset on echo id); unfollow and
    // trimming walk one owner's entries too
    primaryKey({ columns: [t.ownerId, t.echoId] }),
    // an echo's rows in every follower's timeline (a delete's removal through the change stream)
    index("timeline_entries_echo_id").on(t.echoId),
  ],
);

export const tagDays = sqliteTable(
  "tag_days",
  {
    tag: text("tag").notNull(),
    // UTC day number (ms / 86,400,000) of the echos counted
    day: integer("day").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [
    // a tag's recent count: its last 7 days
    primaryKey({ columns: [t.tag, t.day] }),
    // the cron: tags whose oldest counted day just left the 7-day window
    index("tag_days_day").on(t.day),
  ],
);

export const rankDirty = sqliteTable("rank_dirty", {
  // what changed since the last ranking pass (trigger-filled): 'e:<echo id>' or 't:<tag>'
  key: text("key").primaryKey(),
});

export const popularEchos = sqliteTable(
  "popular_echos",
  {
    list: text("list").notNull(), // '<period>:<sort>', e.g. 'today:likes'
    echoId: text("echo_id")
      .notNull()
      .references(() => echos.id, { onDelete: "cascade" }),
    score: integer("score").notNull(),
    createdAt: integer("created_at").notNull(),
    // the echo's author (migration 0035): a limited or suspended account's echos leave the
    // ranked list as it is read (decision 029), tested on the index entry
    authorId: text("author_id").notNull().default(""),
  },
  (t) => [
    primaryKey({ columns: [t.list, t.echoId] }),
    // reading a ranked list (with its authors: covering), and trimming it to its top entries
    index("popular_echos_rank").on(t.list, t.score, t.echoId, t.authorId),
    // the cron: entries older than their period leave
    index("popular_echos_age").on(t.list, t.createdAt),
    // an echo's delete cascades here: without it each delete scanned the lists (3,200 rows, twice)
    index("popular_echos_echo").on(t.echoId),
  ],
);

// Chains of change-stream steps that must reach their end (migration 0030, decision 032): a
// post's fan-out past its first followers, an account's removal. Written with the step that
// starts the chain, moved on by each step, deleted by the last; the repair pass replays a chain
// whose step has not moved it for a while (a lost message).
export const streamChains = sqliteTable(
  "stream_chains",
  {
    // "fanout:<echo id>", "purge:<user id>", "echo:<echo id>" (a deleted echo's purge), "notices:<user
    // id>" and "notice-actor:<user id>" (a refresh of notification groups' shown state)
    key: text("key").primaryKey(),
    // the change-stream message (JSON) that takes the chain its next step
    change: text("change").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  // the repair pass: chains that have not moved lately, oldest first
  (t) => [index("stream_chains_updated").on(t.updatedAt)],
);

export const rankState = sqliteTable("rank_state", {
  // 'version' (bumped by every ranking pass: the KV cache key), 'last_run', 'last_day'
  key: text("key").primaryKey(),
  value: integer("value").notNull(),
});

// ── Notifications (docs/decisions/015-notifications.md) ────────────────────────────────────
// Written by triggers (migrations/0014_notifications.sql) in the same transaction as the action,
// removed with its undoing; mentions are inserted by the echo post's own batch.

export const notifications = sqliteTable(
  "notifications",
  {
    recipientId: text("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["like", "follow", "scroll_follow", "mention", "reply"] }).notNull(),
    // the echo (like, mention; reply: the echo replied to), the scroll (scroll_follow) or the UTC day (follow)
    groupKey: text("group_key").notNull(),
    actorId: text("actor_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    echoId: text("echo_id").references(() => echos.id, { onDelete: "cascade" }),
    scrollId: text("scroll_id").references(() => scrolls.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // a group's actions in time order: undoing an action deletes by this key (the source row's
    // time is the notification's), and a group's newest actor is read from it
    primaryKey({ columns: [t.recipientId, t.kind, t.groupKey, t.createdAt, t.actorId] }),
    // the cascades of an account, echo and scroll deletion (partial: only rows that have one)
    index("notifications_actor").on(t.actorId),
    index("notifications_echo").on(t.echoId).where(sql`echo_id IS NOT NULL`),
    index("notifications_scroll").on(t.scrollId).where(sql`scroll_id IS NOT NULL`),
  ],
);

export const notificationGroups = sqliteTable(
  "notification_groups",
  {
    recipientId: text("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["like", "follow", "scroll_follow", "mention", "reply"] }).notNull(),
    groupKey: text("group_key").notNull(),
    actorCount: integer("actor_count").notNull(),
    latestActorId: text("latest_actor_id").notNull(),
    latestAt: integer("latest_at").notNull(),
    echoId: text("echo_id"),
    scrollId: text("scroll_id"),
    // the latest_at this group was counted unread at, NULL when it was not (hidden from the
    // recipient then): the triggers of migration 0032 take back exactly what they counted
    countedAt: integer("counted_at"),
    // 1 when the recipient's list shows the group, 0 when not, as the same trigger last computed it
    // (migration 0041, decision 015 "Shown groups kept on write"); a hiding change refreshes it
    shown: integer("shown"),
  },
  (t) => [
    primaryKey({ columns: [t.recipientId, t.kind, t.groupKey] }),
    // a recipient's groups newest first (mark all read's newest, the refresh's sets)
    index("notification_groups_latest").on(t.recipientId, t.latestAt, t.kind, t.groupKey),
    // GET /api/notifications: a recipient's shown groups newest first, by keyset
    index("notification_groups_shown").on(t.recipientId, t.latestAt, t.kind, t.groupKey).where(sql`shown = 1`),
  ],
);

/**
 * The feed index (migration 0017, docs/decisions/020-feed-index.md): one per canonical feed rule,
 * kept on write from the change stream (Queues); its entries are the rule's newest matches.
 */
export const feedIndexes = sqliteTable(
  "feed_indexes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ruleKey: text("rule_key").notNull(),
    state: text("state", { enum: ["building", "ready"] }).notNull(),
    cursor: text("cursor"),
    complete: integer("complete", { mode: "boolean" }).notNull().default(false),
    floor: text("floor"),
    /** a most-liked index's frontier and backfill cursor are (rank, echo id): their ranks (migration 0018) */
    floorRank: integer("floor_rank"),
    cursorRank: integer("cursor_rank"),
    /** a ready, incomplete index: the entry EXTEND_AHEAD before its frontier (migration 0036); a page
     * read past it asks the consumer to extend the index (decision 020, "Deeper on demand") */
    near: text("near"),
    nearRank: integer("near_rank"),
    /** entries the index keeps (INDEX_CAP, or SPARSE_CAP for a rule the engine serves short pages) */
    cap: integer("cap").notNull().default(500),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    checkedAt: integer("checked_at").notNull().default(0),
    /** a viewer index's viewer (migration 0039, decision 033): its entries leave out what they do not see; NULL for a rule's shared index */
    viewerId: text("viewer_id"),
  },
  (t) => [
    uniqueIndex("feed_indexes_rule_key").on(t.ruleKey),
    index("feed_indexes_checked").on(t.checkedAt),
    index("feed_indexes_viewer").on(t.viewerId, t.updatedAt).where(sql`viewer_id IS NOT NULL`),
  ],
);

export const feedIndexEntries = sqliteTable(
  "feed_index_entries",
  {
    indexId: integer("index_id").notNull(),
    /** the echo's like count in a most-liked index, else 0 (migration 0018): the page is a key range */
    rank: integer("rank").notNull().default(0),
    echoId: text("echo_id").notNull(),
    /** the echo's author (migration 0035): a page steps over an author the viewer hides on the entry (decision 026) */
    authorId: text("author_id").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.indexId, t.rank, t.echoId] }), index("feed_index_entries_echo").on(t.echoId, t.indexId)],
);

export const feedRuleTerms = sqliteTable(
  "feed_rule_terms",
  {
    term: text("term").notNull(),
    indexId: integer("index_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.term, t.indexId] })],
);


// ── Safety: blocks and mutes (migration 0023, docs/decisions/026-safety.md) ────────────────────

export const blocks = sqliteTable(
  "blocks",
  {
    blockerId: text("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: text("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // block idempotence; settings: whom a user blocks, newest first (keyset on created_at, id)
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index("blocks_blocker_created").on(t.blockerId, t.createdAt, t.blockedId),
    // a write between two users (follow, like, mention): is either blocked by the other
    index("blocks_blocked").on(t.blockedId, t.blockerId),
  ],
);

export const mutes = sqliteTable(
  "mutes",
  {
    muterId: text("muter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    mutedId: text("muted_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    /** when the mute ends by itself (ms), or null: until unmuted */
    expiresAt: integer("expires_at"),
  },
  (t) => [
    primaryKey({ columns: [t.muterId, t.mutedId] }),
    // settings: whom a user mutes, newest first
    index("mutes_muter_created").on(t.muterId, t.createdAt, t.mutedId),
    // a post's fan-out: the followers who mute its author leave it out of their timelines
    index("mutes_muted").on(t.mutedId, t.muterId),
    // the cron: mutes whose time is up
    index("mutes_expires").on(t.expiresAt).where(sql`expires_at IS NOT NULL`),
  ],
);

/**
 * Every author a viewer must not see, as ONE row (trigger-kept from blocks and mutes, migration
 * 0023): a JSON object author id → 0 (for good: a block either way, a mute without end) or the
 * time (ms) a mute ends. Lists read it once per statement and test each candidate's author with
 * json_extract, so 1,000 blocks cost one row read, not 1,000 (decision 026).
 */
export const hiddenAuthors = sqliteTable("hidden_authors", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  authors: text("authors").notNull().default("{}"),
});

/**
 * Muted words and #tags (issue 32, decision 028): one row each, the truth the settings list
 * shows. `pattern` is the folded phrase (" hot take ", " #rust "), `contexts` a bit set of the
 * lists it applies to (MUTE_CONTEXT_BITS), `expiresAt` null for "until I remove it".
 */
export const mutedWords = sqliteTable(
  "muted_words",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    phrase: text("phrase").notNull(),
    pattern: text("pattern").notNull(),
    action: text("action", { enum: ["hide", "warn"] }).notNull(),
    contexts: integer("contexts").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    // one row per phrase (adding it again replaces its options)
    uniqueIndex("muted_words_pattern").on(t.userId, t.pattern),
    // the cron: words whose time is up
    index("muted_words_expires").on(t.expiresAt).where(sql`expires_at IS NOT NULL`),
  ],
);

/**
 * A viewer's muted words compiled for the lists, ONE row (rewritten with every change of
 * muted_words, in its batch): a JSON array of [pattern, end (ms; a far future for none), phrase,
 * context bits, action]. Lists read it once per statement (decision 028).
 */
export const mutedWordSets = sqliteTable("muted_word_sets", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  sets: text("sets").notNull(),
});

// ── Moderation (issue 32, migrations/0028, docs/decisions/029-moderation.md) ─────────────────

/**
 * What every list tests besides the viewer's own hidden authors: ONE row (id 1, written on the
 * first moderator action) holding a JSON object "u:<user id>" → 1 (limited) or 2 (suspended),
 * "e:<echo id>" → 1 (hidden by a moderator). Read once per statement, like hidden_authors.
 */
export const moderationSet = sqliteTable("moderation_set", {
  id: integer("id").primaryKey(),
  entries: text("entries").notNull().default("{}"),
});

/**
 * The audit log: every moderator action (who, what, when, why), and what the affected user sees
 * of it (warn, limit, suspend, hide and their lifting) with their one appeal. No foreign keys:
 * the log outlives the accounts and echos it names.
 */
export const moderationActions = sqliteTable(
  "moderation_actions",
  {
    // time-sortable: the log's order
    id: text("id").primaryKey(),
    moderatorId: text("moderator_id").notNull(),
    moderatorName: text("moderator_name").notNull(),
    action: text("action").notNull(),
    targetUserId: text("target_user_id"),
    targetUserName: text("target_user_name"),
    echoId: text("echo_id"),
    caseId: text("case_id"),
    reason: text("reason").notNull(),
    createdAt: integer("created_at").notNull(),
    // the affected user's one appeal of this action
    appeal: text("appeal"),
    appealedAt: integer("appealed_at"),
  },
  (t) => [
    // the affected user's notices, newest first
    index("moderation_actions_target").on(t.targetUserId, t.id),
  ],
);

/**
 * The queue: one case per reported echo (id = the echo's id, kept by a trigger on reports) or per
 * appeal (id = the appealed action's id). A new report reopens a resolved echo case.
 */
export const reportCases = sqliteTable(
  "report_cases",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    echoId: text("echo_id").references(() => echos.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reportsCount: integer("reports_count").notNull().default(0),
    latestReason: text("latest_reason").notNull(),
    latestAt: integer("latest_at").notNull(),
    assigneeId: text("assignee_id"),
    resolvedAt: integer("resolved_at"),
    resolvedBy: text("resolved_by"),
    note: text("note"),
  },
  (t) => [
    // the open queue, newest report first, by cursor
    index("report_cases_open").on(t.latestAt, t.id).where(sql`resolved_at IS NULL`),
    // the cascades of an echo's and an account's deletion; a queue grouped by account
    index("report_cases_echo").on(t.echoId).where(sql`echo_id IS NOT NULL`),
    index("report_cases_user").on(t.userId, t.latestAt),
  ],
);
