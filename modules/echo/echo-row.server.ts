// An echo as every read selects and returns it: the columns over `echos e JOIN users u` and the
// row's mapping to the API's Echo. Its own file so that the reads (lists, timeline, search, other
// modules) and the writes (echo.server.ts) both depend on it and not on each other.
import { alias } from "drizzle-orm/sqlite-core";
import type { Placeholder } from "drizzle-orm";
import type { MuteContext } from "../shared/index";
import { authorVisible, echoDeleted, sql, tables, warnedWord, type RowOf } from "../shared/index.server";
import type { Echo, QuotedEcho } from "./schema";

const e = alias(tables.echos, "e");
const u = alias(tables.users, "u");
const l = alias(tables.likes, "l");
const rp = alias(tables.reposts, "rp");

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
    // reposts and quotes (decision 027): the viewer's repost is a probe of (user, echo); the
    // quoted echo is read only for a quote (quote_of_id NULL probes nothing), one row — its
    // author's name is kept on the quote (quoted_name; the users row only for a quote written
    // without it) — and is "unavailable" when its author is hidden from the viewer (a block
    // either way, a mute); "deleted" from its deletion on, before its purge (decision 032)
    repostsCount: e.repostsCount,
    quotesCount: e.quotesCount,
    isReposted: sql<number>`EXISTS (SELECT 1 FROM reposts rp WHERE ${rp.userId} = ${viewerId} AND ${rp.echoId} = ${e.id})`,
    quoteOfId: e.quoteOfId,
    quoted: sql<string | null>`(SELECT CASE WHEN ${authorVisible(viewerId, "q.author_id")}
        THEN json_object('id', q.id, 'content', q.content, 'warning', q.warning, 'authorId', q.author_id,
          'userName', COALESCE(${e.quotedName}, (SELECT qu.user_name FROM users qu WHERE qu.id = q.author_id)), 'createdAt', q.created_at)
        ELSE json_object('id', q.id, 'hidden', 1) END
      FROM echos q WHERE q.id = ${e.quoteOfId} AND NOT ${echoDeleted("q.id", "q.author_id")})`,
    // the viewer's "warn" word this echo matches in the list's context (decision 028), or null
    mutedWord: mutes ? warnedWord(viewerId, mutes) : sql<string | null>`NULL`,
  };
}

export type EchoRow = RowOf<ReturnType<typeof echoColumns>>;

type QuotedRow = { id: string; hidden?: 1; content: string; warning: string | null; authorId: string; userName: string; createdAt: number };

/** The quoted echo as a card shows it: in full, "deleted" (gone) or "unavailable" (hidden). */
function toQuoted(quoteOfId: string, json: string | null): QuotedEcho {
  if (json === null) return { _id: quoteOfId, state: "deleted" };
  const q = JSON.parse(json) as QuotedRow;
  if (q.hidden) return { _id: quoteOfId, state: "unavailable" };
  return {
    _id: q.id,
    state: "ok",
    author: { _id: q.authorId, userName: q.userName },
    content: q.content,
    createdAt: new Date(q.createdAt).toISOString(),
    ...(q.warning !== null && { warning: q.warning }),
  };
}

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
    reposts: row.repostsCount,
    quotes: row.quotesCount,
    isReposted: row.isReposted === 1,
    // only on a quote (decision 027)
    ...(row.quoteOfId !== null && { quoted: toQuoted(row.quoteOfId, row.quoted) }),
    // only when set: an echo never edited and without a warning reads as before (decision 025)
    ...(row.editedAt !== null && { editedAt: new Date(row.editedAt).toISOString() }),
    ...(row.warning !== null && { warning: row.warning }),
    ...(row.mutedWord !== null && { mutedWord: row.mutedWord }),
  };
}
