// The one Drizzle schema of the app. drizzle-kit generates migrations/ from it; every index
// names the query it serves. Times are integer milliseconds since the epoch (UTC).
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

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
    followersCount: integer("followers_count").notNull().default(0),
    followingCount: integer("following_count").notNull().default(0),
  },
  (t) => [
    // login / signup-conflict lookup by name, case-insensitive: "Ann" and "ann" are one account
    uniqueIndex("users_user_name_nocase").on(sql`${t.userName} COLLATE NOCASE`),
  ],
);

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

export const echos = sqliteTable(
  "echos",
  {
    // time-sortable id (modules/shared/ids.ts): ORDER BY id is creation order, ties impossible
    id: text("id").primaryKey(),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    // the echo's normalised tag names as a JSON array; echos are immutable, so the list page
    // needs no join to show tags
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at").notNull(),
    likesCount: integer("likes_count").notNull().default(0),
    sharesCount: integer("shares_count").notNull().default(0),
    commentsCount: integer("comments_count").notNull().default(0),
  },
  (t) => [
    // GET /echo/all?user= and profile echos: an author's echos newest first
    index("echos_author_id").on(t.authorId, t.id),
    // most-liked over all echos (popular, tag-less most-liked feeds): likes then newest
    index("echos_likes").on(t.likesCount, t.id),
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
    // tag browser "Most Popular" and trending lists
    index("tags_echo_count").on(t.echoCount),
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
  },
  (t) => [
    // /echo/tag/{name} newest|oldest and feed rules by tag: a tag's echos in id order
    primaryKey({ columns: [t.tag, t.echoId] }),
    // delete cascade and like triggers: the tags of one echo
    index("echo_tags_echo_id").on(t.echoId),
    // /echo/tag/{name}?orderBy=likes: a tag's echos by likes, then newest
    index("echo_tags_tag_likes").on(t.tag, t.likesCount, t.echoId),
  ],
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
  // one share counted per user and echo, however often they share it
  (t) => [primaryKey({ columns: [t.echoId, t.userId] })],
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
  // a user reports an echo once
  (t) => [primaryKey({ columns: [t.echoId, t.userId] })],
);

export const stats = sqliteTable("stats", {
  // single-row counters ('echos' = number of echos) so list totals never COUNT(*)
  key: text("key").primaryKey(),
  value: integer("value").notNull().default(0),
});
