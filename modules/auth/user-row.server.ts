// A user's public columns and their mapping to the API's User: shared by login (which reads the
// user by name) and the session check (which reads it with the session).
import { alias } from "drizzle-orm/sqlite-core";
import { tables } from "../shared/index.server";
import type { User } from "./schema";

type UserRow = typeof tables.users.$inferSelect;

export function toUser(row: Pick<UserRow, "id" | "userName" | "email" | "bio" | "createdAt" | "followersCount" | "followingCount">): User {
  return {
    _id: row.id,
    userName: row.userName,
    email: row.email,
    bio: row.bio,
    createdAt: new Date(row.createdAt).toISOString(),
    followersCount: row.followersCount,
    followingCount: row.followingCount,
  };
}

/** A user's public columns, of `users` or of an alias of it. */
export const userFieldsOf = <T extends Pick<typeof tables.users, "id" | "userName" | "email" | "bio" | "createdAt" | "followersCount" | "followingCount">>(t: T) => ({
  id: t.id,
  userName: t.userName,
  email: t.email,
  bio: t.bio,
  createdAt: t.createdAt,
  followersCount: t.followersCount,
  followingCount: t.followingCount,
});

/** For statements written as SQL over `users u` (the session check's join). */
export const u = alias(tables.users, "u");
// the cast is of types only: an alias's columns differ from the table's in their table name's type
export const userFields = userFieldsOf(u as unknown as typeof tables.users);
