// The feed rules engine: a stored rule → one SQL statement over current data (spec §3, product
// decisions "Feed scrolls"). Lists bind as one JSON parameter each (json_each), so a rule of any
// allowed size stays under D1's 100 bound parameters. Order is total: id (= creation time, no
// ties) or likes then id. feed-rules.reference.ts says the same thing over arrays; a property
// test holds the two equal.
import { idCeil, idFloor } from "../shared/index";
import { raw, sql, type Stmt } from "../shared/index.server";
import { echoColumns } from "../echo/index.server";
import { TIME_RANGE_MS, type FeedRule } from "./schema";

export type Seek = { id: string; likes?: number } | null;

/** WHERE conditions of a rule, for the viewer; `e` is the echos row. */
export function ruleConditions(rule: FeedRule, viewerId: string, now: number): Stmt[] {
  const where: Stmt[] = [];
  const included = JSON.stringify(rule.includedTags);
  if (rule.includedTags.length > 0 && rule.tagMatchType === "any") {
    where.push(sql`e.id IN (SELECT et.echo_id FROM echo_tags et WHERE et.tag IN (SELECT value FROM json_each(${included})))`);
  } else if (rule.includedTags.length > 0) {
    where.push(sql`(SELECT COUNT(*) FROM echo_tags et WHERE et.echo_id = e.id
      AND et.tag IN (SELECT value FROM json_each(${included}))) = ${rule.includedTags.length}`);
  }
  if (rule.excludedTags.length > 0) {
    where.push(sql`NOT EXISTS (SELECT 1 FROM echo_tags et WHERE et.echo_id = e.id
      AND et.tag IN (SELECT value FROM json_each(${JSON.stringify(rule.excludedTags)})))`);
  }
  if (rule.authors.length > 0) {
    where.push(sql`e.author_id IN (SELECT value FROM json_each(${JSON.stringify(rule.authors)}))`);
  }
  let from = rule.startDate;
  if (rule.sortBy === "mostLiked" && rule.sortTimeRange !== "allTime") {
    const windowStart = now - TIME_RANGE_MS[rule.sortTimeRange];
    from = from === null ? windowStart : Math.max(from, windowStart);
  }
  if (from !== null) where.push(sql`e.id >= ${idFloor(from)}`);
  if (rule.endDate !== null) where.push(sql`e.id <= ${idCeil(rule.endDate)}`);
  if (rule.excludeLikedEchos) {
    where.push(sql`NOT EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = e.id AND l.user_id = ${viewerId})`);
  }
  return where;
}

function seekCondition(rule: FeedRule, seek: Seek): Stmt | null {
  if (!seek) return null;
  if (rule.sortBy === "oldestFirst") return sql`e.id > ${seek.id}`;
  if (rule.sortBy === "mostLiked") {
    const likes = seek.likes ?? 0;
    return sql`(e.likes_count < ${likes} OR (e.likes_count = ${likes} AND e.id < ${seek.id}))`;
  }
  return sql`e.id < ${seek.id}`;
}

const ORDER: Record<FeedRule["sortBy"], string> = {
  newestFirst: "e.id DESC",
  oldestFirst: "e.id ASC",
  mostLiked: "e.likes_count DESC, e.id DESC",
};

function whereClause(parts: Stmt[]): Stmt {
  if (parts.length === 0) return raw("1");
  return parts.reduce((acc, part, i) => (i === 0 ? part : sql`${acc} AND ${part}`));
}

/** The page statement: up to limit+1 hydrated echos after the seek key (or at the offset). */
export function feedPageQuery(rule: FeedRule, viewerId: string, now: number, seek: Seek, limit: number, offset: number): Stmt {
  const parts = ruleConditions(rule, viewerId, now);
  const s = seekCondition(rule, seek);
  if (s) parts.push(s);
  return sql`SELECT ${echoColumns(viewerId)} FROM echos e JOIN users u ON u.id = e.author_id
    WHERE ${whereClause(parts)} ORDER BY ${raw(ORDER[rule.sortBy])} LIMIT ${limit + 1} OFFSET ${offset}`;
}

export function feedCountQuery(rule: FeedRule, viewerId: string, now: number): Stmt {
  return sql`SELECT COUNT(*) AS n FROM echos e WHERE ${whereClause(ruleConditions(rule, viewerId, now))}`;
}
