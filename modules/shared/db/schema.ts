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
