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

/** A user's public columns, for statements written as SQL over `users u`. */
export const u = alias(tables.users, "u");
export const userFields = {
  id: u.id,
  userName: u.userName,
  email: u.email,
  bio: u.bio,
  createdAt: u.createdAt,
  followersCount: u.followersCount,
  followingCount: u.followingCount,
};
