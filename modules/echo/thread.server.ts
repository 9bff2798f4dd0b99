// The thread of an echo (decision 024): the chain above it, the echo, and its replies below —
// each reply with its own first replies — paged by cursor. One batch (one D1 round trip) of
// three reads, each bounded by its own LIMITs and the partial indexes of migrations/0021, so the
// rows read do not grow with the size of a conversation (5,000 replies) nor its depth.
import { encodeCursor, isId, notFound } from "../shared/index";
import { authorVisible, moderationVisible, echoDeleted, batch, listCursor, select, sql, type AppContext, type SQL } from "../shared/index.server";
import { echoColumns, toEcho, type EchoRow } from "./echo-row.server";
import { THREAD_ANCESTORS, THREAD_NESTED, THREAD_PAGE, type Thread, type ThreadItem } from "./schema";

/**
 * A node's columns: its id and place (parent), whether it is a live echo or a tombstone, and the
 * echo's own columns (null for a tombstone: LEFT JOINs below).
 */
const nodeColumns = (viewerId: string) => ({
  ...echoColumns(viewerId),
  nodeId: sql<string>`n.id`,
  nodeParent: sql<string | null>`n.parent_id`,
  // an echo (or account) deleted and waiting for its purge (decision 032) reads as deleted already
  live: sql<number>`e.id IS NOT NULL AND NOT ${echoDeleted("e.id", "e.author_id")}`,
  // an author the viewer blocks, is blocked by or mutes (issue 32): the place stays, the echo is
  // not shown (the viewer's set is read once per statement)
  visible: sql<number>`${authorVisible(viewerId, "e.author_id")} AND ${moderationVisible(viewerId, "e.author_id", "e.id", "personal")}`,
});
type NodeRow = EchoRow & { nodeId: string; nodeParent: string | null; live: number; visible: number };

/** Hydrate nodes `n` (id, parent_id, …) as echos or tombstones, with their authors. */
const hydrate = (viewerId: string, nodes: SQL, tail: SQL) =>
  select(nodeColumns(viewerId), sql`FROM ${nodes} n LEFT JOIN echos e ON e.id = n.id LEFT JOIN users u ON u.id = e.author_id ${tail}`);

/** An echo's parent, wherever its row is (a live echo or a deleted one's tombstone). */
const parentOf = (id: SQL) =>
  sql`COALESCE((SELECT parent_id FROM echos WHERE id = ${id}), (SELECT parent_id FROM echo_tombstones WHERE id = ${id}))`;

function toItem(row: NodeRow): ThreadItem {
  if (row.live && !row.visible) return { _id: row.nodeId, parentId: row.nodeParent, echo: null, hidden: true };
  return { _id: row.nodeId, parentId: row.nodeParent, echo: row.live ? toEcho(row) : null };
}

export async function getThread(app: AppContext, viewerId: string, id: string, cursor?: string): Promise<Thread> {
  if (!isId(id)) throw notFound("Echo not found");
  const after = listCursor({ cursor })?.id ?? "";
  // The echo and its ancestors, nearest first, at most THREAD_ANCESTORS above it: one probe of
  // `echos` (then `echo_tombstones`) per step, walking parent ids.
  const chain = sql`(WITH RECURSIVE chain(id, parent_id, depth) AS (
      SELECT id, parent_id, 0 FROM (SELECT id, parent_id FROM echos WHERE id = ${id}
        UNION ALL SELECT id, parent_id FROM echo_tombstones WHERE id = ${id} LIMIT 1)
      UNION ALL
      SELECT c.parent_id, ${parentOf(sql`c.parent_id`)}, c.depth + 1 FROM chain c
      WHERE c.parent_id IS NOT NULL AND c.depth < ${THREAD_ANCESTORS})
    SELECT id, parent_id, depth FROM chain)`;
  // One page of its direct replies, oldest first: live ones and deleted ones that have replies
  // (each a range of its parent index, LIMIT page + 1 to know if more follow).
  const direct = (limit: number) => sql`(SELECT id, parent_id FROM (
      SELECT * FROM (SELECT id, parent_id FROM echos WHERE parent_id = ${id} AND id > ${after} ORDER BY id LIMIT ${limit})
      UNION ALL
      SELECT * FROM (SELECT id, parent_id FROM echo_tombstones WHERE parent_id = ${id} AND id > ${after} ORDER BY id LIMIT ${limit}))
    ORDER BY id LIMIT ${limit})`;
  // The first THREAD_NESTED replies of each reply of the page (one short range each).
  const nested = sql`(SELECT r.id, r.parent_id FROM ${direct(THREAD_PAGE)} d
      JOIN echos r ON r.id IN (SELECT id FROM echos WHERE parent_id = d.id ORDER BY id LIMIT ${THREAD_NESTED}))`;
  const [chainRows, pageRows, nestedRows]: NodeRow[][] = await batch(app.db, [
    hydrate(viewerId, chain, sql`ORDER BY n.depth DESC`),
    hydrate(viewerId, direct(THREAD_PAGE + 1), sql`ORDER BY n.id`),
    hydrate(viewerId, nested, sql`ORDER BY n.id`),
  ]);

  const focusRow = chainRows.at(-1);
  if (!focusRow || focusRow.nodeId !== id) throw notFound("Echo not found");
  const ancestors = chainRows.slice(0, -1).map(toItem);
  const top = chainRows[0]!;
  const hasMore = pageRows.length > THREAD_PAGE;
  const page = pageRows.slice(0, THREAD_PAGE);
  const children = new Map<string, ThreadItem[]>();
  for (const row of nestedRows) {
    const list = children.get(row.nodeParent ?? "") ?? [];
    list.push(toItem(row));
    children.set(row.nodeParent ?? "", list);
  }
  const last = page.at(-1);
  return {
    echo: toItem(focusRow),
    ancestors,
    // the chain goes on above what is shown: the topmost shown one's parent opens it
    earlierId: top.nodeParent,
    replies: page.map((row) => {
      const shown = children.get(row.nodeId) ?? [];
      // a live reply counts its replies; a deleted one's count went with it (a full first row
      // says there may be more)
      const moreReplies = row.live ? row.commentsCount > shown.length : shown.length >= THREAD_NESTED;
      return { ...toItem(row), replies: shown, moreReplies };
    }),
    pagination: { limit: THREAD_PAGE, hasMore, nextCursor: hasMore && last ? encodeCursor({ id: last.nodeId }) : null },
  };
}

/**
 * An echo's conversation: its root's id (its own for a top-level echo), wherever its row is (a
 * deleted echo's page still shows its replies); null for an unknown id. An echo page's live
 * socket takes every new reply of that conversation (decision 016): one row, read in the
 * handshake's batch.
 */
export async function conversationOf(app: AppContext, id: string): Promise<string | null> {
  const [rows] = await batch(app.db, [
    select({ root: sql<string>`COALESCE(t.root_id, t.id)` }, sql`FROM (SELECT id, root_id FROM echos WHERE id = ${id}
      UNION ALL SELECT id, root_id FROM echo_tombstones WHERE id = ${id} LIMIT 1) t`),
  ]);
  return rows[0]?.root ?? null;
}
