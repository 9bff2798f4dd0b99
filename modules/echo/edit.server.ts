// Edits with history (issue 31, docs/decisions/025-edits-and-warnings.md). An edit rewrites the
// echo in place — text, tags, warning — so every list, tag page, count and the search index (a
// trigger, migrations/0022) follow it in the edit's own transaction; the version it replaces is
// kept in echo_edits first. Feed indexes follow through the change stream (an "edit" message).
import { badRequest, conflict, echoMuteText, forbidden, notFound } from "../shared/index";
import { accountLimit, batch, echoDeleted, returning, select, sendChanges, sql, tables, type AppContext, type Result, type SQL } from "../shared/index.server";
import { mentionStatement } from "../notification/index.server";
import { mentionedNames, requireEchoId } from "./echo.server";
import { echoColumns, toEcho } from "./echo-row.server";
import { publishEdit } from "./live.server";
import { echoTags, HISTORY_PAGE, MAX_EDITS, MAX_TAGS, tooManyTagsMessage, type Echo, type EchoHistory, type PostEchoInput } from "./schema";

/**
 * Edit one's own echo: the whole new version (the post's rules: PostEchoSchema). One batch: the
 * rate limit, the old version into the history, the echo, its tag links (their counters and
 * tag_days follow by trigger), the notifications of people newly mentioned, and the answer.
 * An edit that changes nothing writes nothing and answers the echo as it is.
 */
export async function editEcho(app: AppContext, viewerId: string, id: string, edit: PostEchoInput): Promise<Echo> {
  requireEchoId(id);
  const tags = echoTags(edit.tags, edit.content);
  if (tags.length > MAX_TAGS) throw badRequest(`tags: ${tooManyTagsMessage(tags.length)}`);
  const json = JSON.stringify(tags);
  const warning = edit.warning ?? null;
  const now = Date.now();
  const limit = accountLimit("echoEdit", viewerId, now);
  // an echo marked deleted (decision 032) is not edited: its tag links already left with its counts
  const mine = sql`id = ${id} AND author_id = ${viewerId} AND NOT ${echoDeleted(sql`${id}`)}`;
  const same = sql`content = ${edit.content} AND tags = ${json} AND warning IS ${warning}`;
  // the tag links follow whatever tags the echo now has: with no edit these write nothing
  const synced = sql`(SELECT tags FROM echos WHERE id = ${id}) = ${json} AND NOT ${echoDeleted(sql`${id}`)}`;
  const statements: SQL[] = [
    limit.upsert,
    // the version being replaced, numbered by the edits before it (version 0: as posted)
    sql`INSERT INTO echo_edits (echo_id, version, content, tags, warning, created_at)
        SELECT id, edits_count, content, tags, warning, COALESCE(edited_at, created_at) FROM echos
        WHERE ${mine} AND edits_count < ${MAX_EDITS} AND NOT (${same}) AND ${limit.within}`,
  ];
  // the echo changes only if its old version was kept just now (a row numbered by its count)
  const update = returning(
    sql`UPDATE echos SET content = ${edit.content}, tags = ${json}, warning = ${warning}, mute_text = ${echoMuteText({ content: edit.content, tags, warning })}, edited_at = ${now}, edits_count = edits_count + 1
        WHERE ${mine} AND EXISTS (SELECT 1 FROM echo_edits x WHERE x.echo_id = echos.id AND x.version = echos.edits_count)`,
    { id: tables.echos.id },
  );
  const after: SQL[] = [
    sql`DELETE FROM echo_tags WHERE echo_id = ${id} AND tag NOT IN (SELECT value FROM json_each(${json})) AND ${synced}`,
    sql`INSERT INTO tags (name, created_at) SELECT value, ${now} FROM json_each(${json}) WHERE ${synced} ON CONFLICT (name) DO NOTHING`,
    // a new link carries what the others carry: the echo's day (tag_days) and its like count
    sql`INSERT INTO echo_tags (tag, echo_id, day, tags, likes_count, reply, author_id)
        SELECT j.value, e.id, e.created_at / 86400000, e.tags, e.likes_count, e.parent_id IS NOT NULL, e.author_id FROM echos e, json_each(${json}) j
        WHERE e.id = ${id} AND e.tags = ${json} AND NOT ${echoDeleted(sql`${id}`)} ON CONFLICT DO NOTHING`,
    sql`UPDATE echo_tags SET tags = ${json} WHERE echo_id = ${id} AND tags <> ${json} AND ${synced}`,
  ];
  // people the new text mentions hear of it once (a mention already notified is not repeated)
  const mentions = mentionStatement(id, viewerId, mentionedNames(edit.content), now, sql`EXISTS (SELECT 1 FROM echos WHERE ${mine} AND edited_at = ${now})`);
  if (mentions) after.push(mentions);
  const read = select(
    {
      ...echoColumns(viewerId),
      editsCount: sql<number>`e.edits_count`,
      deleted: sql<number>`${echoDeleted("e.id")}`,
    },
    sql`FROM echos e JOIN users u ON u.id = e.author_id WHERE e.id = ${id}`,
  );
  const results = await batch(app.db, [...statements, update, ...after, limit.count, read]);
  const row = (results[results.length - 1] as Result<typeof read>)[0];
  const edited = (results[statements.length] as Result<typeof update>).length > 0;
  if (!row || row.deleted === 1) throw notFound("Echo not found");
  if (row.authorId !== viewerId) throw forbidden("Only the author can edit this echo");
  const tooMany = limit.exceeded((results[results.length - 2] as Result<typeof limit.count>)[0]?.count);
  if (tooMany) throw tooMany;
  const echo = toEcho(row);
  if (!edited && !(echo.content === edit.content && JSON.stringify(row.tags) === json && row.warning === warning)) {
    throw conflict(`This echo has been edited ${MAX_EDITS} times, the most an echo can be`);
  }
  // feed indexes add or remove it as its new tags match their rules (decision 020)
  if (edited) {
    sendChanges(app, [{ type: "edit", echoIds: [id] }]);
    // open pages showing it follow at once: the text, tags, warning and "edited" (decision 025)
    const { _id, content, tags: newTags, editedAt, warning: cw, author } = echo;
    publishEdit(app, { _id, content, tags: newTags, editedAt, warning: cw, author: { _id: author._id } });
  }
  return echo;
}

/** An echo's earlier versions, newest first, HISTORY_PAGE at a time; `before` a version number. */
export async function echoHistory(app: AppContext, id: string, before?: number): Promise<EchoHistory> {
  requireEchoId(id);
  const h = tables.echoEdits;
  const [echo, rows] = await batch(app.db, [
    select({ id: tables.echos.id }, sql`FROM echos WHERE id = ${id}`),
    select(
      { version: h.version, content: h.content, tags: h.tags, warning: h.warning, createdAt: h.createdAt },
      sql`FROM echo_edits WHERE echo_id = ${id} AND version < ${before ?? MAX_EDITS + 1} ORDER BY version DESC LIMIT ${HISTORY_PAGE + 1}`,
    ),
  ]);
  if (!echo[0]) throw notFound("Echo not found");
  const page = rows.slice(0, HISTORY_PAGE);
  const hasMore = rows.length > HISTORY_PAGE;
  return {
    versions: page.map((v) => ({
      version: v.version,
      content: v.content,
      tags: v.tags,
      ...(v.warning !== null && { warning: v.warning }),
      createdAt: new Date(v.createdAt).toISOString(),
    })),
    pagination: { limit: HISTORY_PAGE, hasMore, nextCursor: hasMore ? String(page[page.length - 1]!.version) : null },
  };
}
