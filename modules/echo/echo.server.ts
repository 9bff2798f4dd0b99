import { badRequest, conflict, echoMuteText, forbidden, isId, newId, notFound } from "../shared/index";
import { batch, echoDeleted, moderationVisible, batchUnderLimit, blockedBetween, inlineLimit, returning, select, sendChanges, sql, tables, type AppContext, type Result, type SQL } from "../shared/index.server";
import { mentionStatement } from "../notification/index.server";
import { linkify } from "./linkify";
import { echoColumns, toEcho } from "./echo-row.server";

/** Per-account write limits (docs/security.md): posts and like/unlike calls per 5 minutes. */
export const POST_LIMIT = { limit: 100, windowMs: 5 * 60_000 };
export const LIKE_LIMIT = { limit: 300, windowMs: 5 * 60_000 };
import { echoTags, MAX_TAGS, tooManyTagsMessage, type Echo, type PostEchoInput } from "./schema";
import { fanOutPost, fanOutRest } from "./timeline.server";
import { publishLive } from "./live.server";

export function requireEchoId(id: string): string {
  if (!isId(id)) throw notFound("Echo not found");
  return id;
}

export async function getEcho(app: AppContext, viewerId: string, id: string): Promise<Echo> {
  requireEchoId(id);
  const [rows] = await batch(app.db, [select(echoColumns(viewerId), sql`FROM echos e JOIN users u ON u.id = e.author_id WHERE e.id = ${id}
    AND ${moderationVisible(viewerId, "e.author_id", "e.id", "personal")}`)]);
  if (!rows[0]) throw notFound("Echo not found");
  return toEcho(rows[0]);
}

/** The user names an echo's text mentions (@name), as the text renders them (linkify). */
export const mentionedNames = (content: string) => linkify(content).flatMap((part) => (part.kind === "mention" ? [part.userName] : []));

/**
 * Post: the echo, its tags (created on first use) and links, its rows in the followers' timelines
 * and the notifications of the people it mentions, in one atomic batch, rate limit included.
 * With `parentId` it is a reply (decision 024): written only while the parent exists (404
 * otherwise), under the same post limit (a reply is an echo); the parent's count and its
 * author's notification are the triggers' (migrations/0021_replies.sql).
 */
export async function postEcho(
  app: AppContext,
  authorId: string,
  post: Omit<PostEchoInput, "warning"> & { warning?: string | null },
  parentId?: string,
  quoteOfId?: string,
): Promise<Echo> {
  if (parentId !== undefined) requireEchoId(parentId);
  if (quoteOfId !== undefined) requireEchoId(quoteOfId);
  // the #tags typed in the text are tags (PostEchoSchema merges them; again here, a no-op then, so
  // whatever calls this stores, indexes, counts and streams the same tags)
  const input = { content: post.content, tags: echoTags(post.tags, post.content), warning: post.warning ?? null };
  if (input.tags.length > MAX_TAGS) throw badRequest(`tags: ${tooManyTagsMessage(input.tags.length)}`);
  const now = Date.now();
  const id = newId(now);
  const limit = inlineLimit(`post:${authorId}`, POST_LIMIT.limit, POST_LIMIT.windowMs, now);
  const posted = sql`EXISTS (SELECT 1 FROM echos WHERE id = ${id})`;
  // what muted words are found in (decision 028)
  const muteText = echoMuteText(input);
  const statements: SQL[] = [
    limit.upsert,
    quoteOfId !== undefined
      ? // a quote (decision 027): written only while the quoted echo exists and no block stands
        // between the two authors; its count and notification are the triggers' (0026)
        // between the two authors; the quoted author's name is kept on the quote (its card's embed
        // reads no users row: decision 027, "Pages sized by rows per echo")
        sql`INSERT INTO echos (id, author_id, content, tags, warning, created_at, mute_text, quote_of_id, quoted_name)
          SELECT ${id}, ${authorId}, ${input.content}, ${JSON.stringify(input.tags)}, ${input.warning}, ${now}, ${muteText}, q.id, qu.user_name
          FROM echos q JOIN users qu ON qu.id = q.author_id WHERE q.id = ${quoteOfId} AND NOT ${echoDeleted("q.id")} AND ${limit.within} AND NOT ${blockedBetween(sql`q.author_id`, authorId)}`
      : parentId === undefined
      ? sql`INSERT INTO echos (id, author_id, content, tags, warning, created_at, mute_text)
          SELECT ${id}, ${authorId}, ${input.content}, ${JSON.stringify(input.tags)}, ${input.warning}, ${now}, ${muteText} WHERE ${limit.within}`
      : sql`INSERT INTO echos (id, author_id, content, tags, warning, created_at, mute_text, parent_id, root_id)
          SELECT ${id}, ${authorId}, ${input.content}, ${JSON.stringify(input.tags)}, ${input.warning}, ${now}, ${muteText}, p.id, COALESCE(p.root_id, p.id)
          FROM echos p WHERE p.id = ${parentId} AND NOT ${echoDeleted("p.id")} AND ${limit.within} AND NOT ${blockedBetween(sql`p.author_id`, authorId)}`,
  ];
  for (const tag of input.tags) {
    statements.push(sql`INSERT INTO tags (name, created_at) SELECT ${tag}, ${now} WHERE ${posted} ON CONFLICT (name) DO NOTHING`);
    statements.push(sql`INSERT INTO echo_tags (tag, echo_id, day, tags, reply, author_id)
      SELECT ${tag}, ${id}, ${Math.floor(now / 86_400_000)}, ${JSON.stringify(input.tags)}, ${parentId === undefined ? 0 : 1}, ${authorId} WHERE ${posted}`);
  }
  // the Following timelines (decision 013): the author's and its first followers', atomic with
  // the echo; the rest through the change stream after it committed (fanOutRest). A reply
  // reaches only those who also follow the parent's author (decision 024).
  const fanOut = fanOutPost(id, authorId, posted, now, parentId);
  statements.push(...fanOut.statements);
  const mentions = mentionStatement(id, authorId, mentionedNames(input.content), now, posted);
  if (mentions) statements.push(mentions);
  const read = select(echoColumns(authorId), sql`FROM echos e JOIN users u ON u.id = e.author_id WHERE e.id = ${id}`);
  // a reply: whether its parent is there and either author blocks the other (issue 32), to say
  // why nothing was written
  const target = quoteOfId ?? parentId;
  const parent = target === undefined ? null : select({ blocked: sql<number>`${blockedBetween(sql`p.author_id`, authorId)}`, root: sql<string>`COALESCE(p.root_id, p.id)` }, sql`FROM echos p WHERE p.id = ${target}`);
  const results = await batch(app.db, [...statements, ...(parent ? [parent] : []), fanOut.followers, limit.count, read]);
  const row = (results[results.length - 1] as Result<typeof read>)[0];
  const followers = (results[results.length - 3] as Result<typeof fanOut.followers>)[0]?.count ?? 0;
  if (!row) {
    const count = (results[results.length - 2] as Result<typeof limit.count>)[0]?.count;
    // within the limit, only a missing parent or a block between the two leaves nothing written
    const state = parent ? (results[statements.length] as Result<typeof parent>)[0] : undefined;
    throw limit.exceeded(count) ?? (target === undefined ? new Error("posted echo not found") : state?.blocked ? forbidden(`You cannot ${quoteOfId === undefined ? "reply to" : "quote"} this echo`) : notFound("Echo not found"));
  }
  const echo = toEcho(row);
  // a reply's conversation (its parent's, read above): open pages of that thread place it live
  const rootId = parentId === undefined || quoteOfId !== undefined ? undefined : (results[statements.length] as Result<NonNullable<typeof parent>>)[0]?.root;
  // after the batch committed: open feeds that match show their "new echos" pill (decision 016),
  // and the change stream takes it to the feed indexes (decision 020)
  publishLive(app, echo, rootId);
  const rest = fanOutRest(id, authorId, followers, parentId);
  sendChanges(app, [{ type: "post", echo: { id, authorId, tags: input.tags, createdAt: now, parentId: parentId ?? null } }, ...(rest ? [rest] : [])]);
  return echo;
}

/** Like or unlike (idempotent): the rate limit, the write and the fresh count in one batch. */
export async function setLike(app: AppContext, viewerId: string, id: string, liked: boolean) {
  requireEchoId(id);
  const limit = inlineLimit(`like:${viewerId}`, LIKE_LIMIT.limit, LIKE_LIMIT.windowMs);
  // no like between two users either of whom blocks the other (issue 32)
  const blocked = blockedBetween(sql`(SELECT author_id FROM echos WHERE id = ${id})`, viewerId);
  // an echo marked deleted and waiting for its purge (decision 032) is gone: no like, a 404
  const gone = echoDeleted(sql`${id}`);
  const write = liked
    ? sql`INSERT INTO likes (echo_id, user_id, created_at)
          SELECT ${id}, ${viewerId}, ${Date.now()} WHERE EXISTS (SELECT 1 FROM echos WHERE id = ${id}) AND NOT ${gone} AND ${limit.within} AND NOT ${blocked}
          ON CONFLICT DO NOTHING`
    : sql`DELETE FROM likes WHERE echo_id = ${id} AND user_id = ${viewerId} AND ${limit.within}`;
  const [, , counts, rows] = await batch(app.db, [
    limit.upsert,
    write,
    limit.count,
    select(
      {
        likesCount: tables.echos.likesCount,
        isLiked: sql<number>`EXISTS (SELECT 1 FROM likes WHERE ${tables.likes.echoId} = ${id} AND ${tables.likes.userId} = ${viewerId})`,
        blocked: sql<number>`${blocked}`,
      },
      sql`FROM echos WHERE id = ${id} AND NOT ${gone}`,
    ),
  ]);
  const tooMany = limit.exceeded(counts[0]?.count);
  if (tooMany) throw tooMany;
  const row = rows[0];
  if (!row) throw notFound("Echo not found");
  if (liked && row.blocked === 1 && row.isLiked !== 1) throw forbidden("You cannot like this echo");
  // most-liked feed indexes move the echo to its new count (decision 020); the liker's viewer
  // indexes let it go or take it back (decision 033)
  sendChanges(app, [{ type: "likes", echoIds: [id], userId: viewerId }]);
  return { likes: row.likesCount, isLiked: row.isLiked === 1 };
}

/**
 * Count a share (once per user and echo; sharing again is not counted twice), under the
 * account's share limit in the same batch.
 */
export async function shareEcho(app: AppContext, viewerId: string, id: string) {
  requireEchoId(id);
  const [, rows] = await batchUnderLimit(app.db, "share", viewerId, (within) => [
    sql`INSERT INTO shares (echo_id, user_id, created_at)
        SELECT ${id}, ${viewerId}, ${Date.now()} WHERE EXISTS (SELECT 1 FROM echos WHERE id = ${id}) AND ${within}
        ON CONFLICT DO NOTHING`,
    select({ sharesCount: tables.echos.sharesCount }, sql`FROM echos WHERE id = ${id}`),
  ]);
  if (!rows[0]) throw notFound("Echo not found");
  return { shares: rows[0].sharesCount };
}

/** Record a report with its reason; a user reports an echo once (409 after that). */
export async function reportEcho(app: AppContext, viewerId: string, id: string, reason: string) {
  requireEchoId(id);
  const [inserted, exists] = await batchUnderLimit(app.db, "report", viewerId, (within) => [
    returning(
      sql`INSERT INTO reports (echo_id, user_id, reason, created_at)
        SELECT ${id}, ${viewerId}, ${reason}, ${Date.now()} WHERE EXISTS (SELECT 1 FROM echos WHERE id = ${id}) AND ${within}
        ON CONFLICT DO NOTHING`,
      { echoId: tables.reports.echoId },
    ),
    select({ id: tables.echos.id }, sql`FROM echos WHERE id = ${id}`),
  ]);
  if (!exists[0]) throw notFound("Echo not found");
  if (!inserted[0]) throw conflict("You have already reported this echo");
  return { reported: true };
}

