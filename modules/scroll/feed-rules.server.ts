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

/**
 * Where a feed's rows come from. With one included tag (any), or any number of tags that must
 * all be present, the rows are driven by one tag's index (`echo_tags (tag, echo_id)`, or
 * `(tag, likes, echo_id)` for most-liked), so a page reads about what it shows. Otherwise the
 * echos table drives, in id or likes order.
 */
type Source = { from: Stmt; id: string; likes: string; driveTag: string | null };

function source(rule: FeedRule): Source {
  const driveTag =
    rule.includedTags.length === 1 || (rule.tagMatchType === "all" && rule.includedTags.length > 1)
      ? rule.includedTags[0]!
      : null;
  if (driveTag) {
    return {
      from: sql`echo_tags d JOIN echos e ON e.id = d.echo_id`,
      id: "d.echo_id",
      likes: "d.likes_count",
      driveTag,
    };
  }
  return { from: raw("echos e"), id: "e.id", likes: "e.likes_count", driveTag: null };
}

/** WHERE conditions of a rule, for the viewer; `e` is the echos row. */
function ruleConditions(rule: FeedRule, viewerId: string, now: number, src: Source): Stmt[] {
  const where: Stmt[] = [];
  const id = raw(src.id);
  if (src.driveTag !== null) {
    where.push(sql`d.tag = ${src.driveTag}`);
    const others = rule.includedTags.slice(1);
    if (others.length > 0) {
      where.push(sql`(SELECT COUNT(*) FROM echo_tags et WHERE et.echo_id = e.id
        AND et.tag IN (SELECT value FROM json_each(${JSON.stringify(others)}))) = ${others.length}`);
    }
  } else if (rule.includedTags.length > 0 && rule.tagMatchType === "any") {
    where.push(sql`e.id IN (SELECT et.echo_id FROM echo_tags et WHERE et.tag IN (SELECT value FROM json_each(${JSON.stringify(rule.includedTags)})))`);
  } else if (rule.includedTags.length > 0) {
    where.push(sql`(SELECT COUNT(*) FROM echo_tags et WHERE et.echo_id = e.id
      AND et.tag IN (SELECT value FROM json_each(${JSON.stringify(rule.includedTags)}))) = ${rule.includedTags.length}`);
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
  if (from !== null) where.push(sql`${id} >= ${idFloor(from)}`);
  if (rule.endDate !== null) where.push(sql`${id} <= ${idCeil(rule.endDate)}`);
  if (rule.excludeLikedEchos) {
    where.push(sql`NOT EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = e.id AND l.user_id = ${viewerId})`);
  }
  return where;
}

function seekCondition(rule: FeedRule, seek: Seek, src: Source): Stmt | null {
  if (!seek) return null;
  const id = raw(src.id);
  if (rule.sortBy === "oldestFirst") return sql`${id} > ${seek.id}`;
  if (rule.sortBy === "mostLiked") return sql`(${raw(src.likes)}, ${id}) < (${seek.likes ?? 0}, ${seek.id})`;
  return sql`${id} < ${seek.id}`;
}

function orderBy(rule: FeedRule, src: Source): Stmt {
  if (rule.sortBy === "oldestFirst") return raw(`${src.id} ASC`);
  if (rule.sortBy === "mostLiked") return raw(`${src.likes} DESC, ${src.id} DESC`);
  return raw(`${src.id} DESC`);
}

function whereClause(parts: Stmt[]): Stmt {
  if (parts.length === 0) return raw("1");
  return parts.reduce((acc, part, i) => (i === 0 ? part : sql`${acc} AND ${part}`));
}

/** The page statement: up to limit+1 hydrated echos after the seek key (or at the offset). */
export function feedPageQuery(rule: FeedRule, viewerId: string, now: number, seek: Seek, limit: number, offset: number): Stmt {
  const src = source(rule);
  const parts = ruleConditions(rule, viewerId, now, src);
  const s = seekCondition(rule, seek, src);
  if (s) parts.push(s);
  return sql`SELECT ${echoColumns(viewerId)} FROM ${src.from} JOIN users u ON u.id = e.author_id
    WHERE ${whereClause(parts)} ORDER BY ${orderBy(rule, src)} LIMIT ${limit + 1} OFFSET ${offset}`;
}
