// An echo as every read selects and returns it: the columns over `echos e JOIN users u` and the
// row's mapping to the API's Echo. Its own file so that the reads (lists, timeline, search, other
// modules) and the writes (echo.server.ts) both depend on it and not on each other.
import { alias } from "drizzle-orm/sqlite-core";
import type { Placeholder } from "drizzle-orm";
import type { MuteContext } from "../shared/index";
import { sql, tables, warnedWord, type RowOf } from "../shared/index.server";
import type { Echo } from "./schema";

const e = alias(tables.echos, "e");
const u = alias(tables.users, "u");
const l = alias(tables.likes, "l");

/**
 * The columns every echo read selects over `echos e JOIN users u`, with the viewer's like
 * state: hydrated in one query. Types and decoding (the tags' JSON) come from the schema.
 */
export function echoColumns(viewerId: string | Placeholder, mutes?: MuteContext) {
  return {
    id: e.id,
    content: e.content,
    tags: e.tags,
    createdAt: e.createdAt,
    likesCount: e.likesCount,
    sharesCount: e.sharesCount,
    commentsCount: e.commentsCount,
    parentId: e.parentId,
    editedAt: e.editedAt,
    warning: e.warning,
    authorId: e.authorId,
    userName: u.userName,
    isLiked: sql<number>`EXISTS (SELECT 1 FROM likes l WHERE ${l.echoId} = ${e.id} AND ${l.userId} = ${viewerId})`,
    // the viewer's "warn" word this echo matches in the list's context (decision 028), or null
    mutedWord: mutes ? warnedWord(viewerId, mutes) : sql<string | null>`NULL`,
  };
}

export type EchoRow = RowOf<ReturnType<typeof echoColumns>>;

export function toEcho(row: EchoRow): Echo {
  return {
    _id: row.id,
    content: row.content,
    author: { _id: row.authorId, userName: row.userName },
    tags: row.tags.map((name) => ({ _id: name, name })),
    likes: row.likesCount,
    isLiked: row.isLiked === 1,
    comments: [],
    commentsCount: row.commentsCount,
    shares: row.sharesCount,
    createdAt: new Date(row.createdAt).toISOString(),
    parentId: row.parentId,
    // only when set: an echo never edited and without a warning reads as before (decision 025)
    ...(row.editedAt !== null && { editedAt: new Date(row.editedAt).toISOString() }),
    ...(row.warning !== null && { warning: row.warning }),
    ...(row.mutedWord !== null && { mutedWord: row.mutedWord }),
  };
}
