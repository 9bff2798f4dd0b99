// Which authors a viewer does not see (issue 32, docs/decisions/026-safety.md): one row per
// viewer, `hidden_authors.authors`, a JSON object author id → 0 (hidden for good: a block either
// way, a mute without end) or the time in ms a mute ends. Triggers keep it (migration 0023).
//
// A list tests each candidate's author with json_extract on that object: the object is an
// uncorrelated scalar subquery, which SQLite reads once per statement, so a viewer who blocks
// 1,000 accounts costs one row read per statement, and the test sits in the statement's WHERE
// before its LIMIT — a page leaves a hidden author's echos out and still fills.
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "./context.server";
import { hiddenAuthors } from "./db/schema";
import { select, textOf } from "./sql/statement.server";
import { batch } from "./sql/batch.server";

/** The viewer's set (NULL when they never blocked, muted nor were blocked). */
export const hiddenSet = (viewerId: string | Placeholder | SQL): SQL => sql`(SELECT authors FROM hidden_authors WHERE user_id = ${viewerId})`;

/**
 * Whether the author in column `authorCol` is visible to the viewer: absent from the set, or a
 * mute that has ended (its end at or before now). 1 ≤ value ≤ now: 0 is "for good".
 */
export const authorVisible = (viewerId: string | Placeholder | SQL, authorCol: string | SQL): SQL =>
  sql`ifnull(json_extract(${hiddenSet(viewerId)}, '$."' || ${typeof authorCol === "string" ? sql.raw(authorCol) : authorCol} || '"'), 1) BETWEEN 1 AND unixepoch() * 1000`;

/**
 * The same test as SQL text for statements written as text (the feed engine), the viewer as a
 * literal: `viewerLiteral` must already be an escaped SQL string literal.
 */
export const authorVisibleText = (viewerLiteral: string, authorExpr: string): string => authorVisibleInText(textOf(hiddenSet(sql.raw(viewerLiteral))), authorExpr);

/** The same test against a set already at hand (`setExpr`: a viewer's `authors` column, read once). */
export const authorVisibleInText = (setExpr: string, authorExpr: string): string =>
  `ifnull(json_extract(${setExpr}, '$."' || ${authorExpr} || '"'), 1) BETWEEN 1 AND unixepoch() * 1000`;

/** Whether the author is hidden from the viewer for good (0 in their set: a block either way, a mute without end). */
export const hiddenForGoodText = (viewerLiteral: string, authorExpr: string): string =>
  `ifnull(json_extract(${textOf(hiddenSet(sql.raw(viewerLiteral)))}, '$."' || ${authorExpr} || '"'), 1) = 0`;

/** Whether the viewer's set holds anything at all (a statement may skip its author probes). */
export const hasHidden = (viewerId: string | Placeholder | SQL): SQL => sql`EXISTS (SELECT 1 FROM hidden_authors WHERE user_id = ${viewerId} AND authors <> '{}')`;

/** The same test as SQL text (`viewerLiteral`: an escaped SQL string literal or a column). */
export const hasHiddenText = (viewerLiteral: string): string => textOf(hasHidden(sql.raw(viewerLiteral)));

/**
 * Live updates (decision 016): which of these viewers must not get an echo by `authorId`. One
 * statement for all the sockets of a publish, a primary-key probe of hidden_authors per viewer
 * (a viewer with no set costs a probe that finds nothing).
 */
export async function viewersHiding(db: Db, authorId: string, viewerIds: readonly string[]): Promise<Set<string>> {
  if (viewerIds.length === 0) return new Set();
  const [rows] = await batch(db, [
    select(
      { id: hiddenAuthors.userId },
      sql`FROM json_each(${JSON.stringify(viewerIds)}) r CROSS JOIN hidden_authors ON ${hiddenAuthors.userId} = r.value
        WHERE NOT (ifnull(json_extract(${hiddenAuthors.authors}, ${`$."${authorId}"`}), 1) BETWEEN 1 AND unixepoch() * 1000)`,
    ),
  ]);
  return new Set(rows.map((r) => r.id));
}

/** Whether either of two users blocks the other (two primary-key probes of `blocks`). */
export const blockedBetween = (a: string | SQL, b: string | SQL): SQL =>
  sql`(EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${a} AND blocked_id = ${b}) OR EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${b} AND blocked_id = ${a}))`;
