// The feed rules engine: a stored rule → one SQL statement over current data (spec §3, product
// decisions "Feed scrolls"). feed-rules.reference.ts says the same thing over arrays; a property
// test holds the two equal. Order is total: id (= creation time, no ties) or likes then id.
//
// Plan (docs/decisions/008-feed-engine.md): the rows come from index streams that are already in
// the feed's order — one stream per included tag (any-of), the rarest included tag (all-of), one
// stream per author, or the echos table when the rule names neither. Several streams are joined
// with a compound `UNION … ORDER BY … LIMIT`, which SQLite runs as a merge of ordered co-routines:
// it stops once the page is full, so a page reads about (page + streams + rejected candidates)
// rows whatever the depth. Tag tests on a candidate look inside its own JSON array of validated
// tag names (`echos.tags`, copied onto each tag link and covered by the tag indexes) instead of
// probing other rows, so a rejected candidate costs the one index entry that found it.
//
// Rule values are written into the statement as SQL literals (escaped by `lit`), not bound: one
// statement may repeat a value in 25 streams, and D1 binds at most 100 parameters. Every value is
// also validated where the rule is saved (tags, ids) or read (cursor).
import { idCeil, idFloor, isId } from "../shared/index";
import { raw, sql, type Stmt } from "../shared/index.server";
import { echoColumns } from "../echo/index.server";
import { TIME_RANGE_MS, type FeedRule } from "./schema";

export type Seek = { id: string; likes?: number } | null;

/** D1's limit on the terms of one compound SELECT; two levels serve the 25 tags or authors a
 * rule may name (MAX_RULE_TAGS, MAX_RULE_AUTHORS). */
const MAX_COMPOUND = 5;

/** A string as an SQL literal: quotes doubled, so no value can end the literal. */
const lit = (value: string) => `'${value.replaceAll("'", "''")}'`;
const int = (value: number) => {
  if (!Number.isSafeInteger(value)) throw new Error("feed engine: not an integer");
  return String(value);
};
/** Whether a candidate carries a tag: its JSON array of tags (`tags`, on the echo row or copied
 * on the tag link) holds the name in double quotes. */
const hasTagIn = (tags: string, tag: string) => `instr(${tags}, ${lit(JSON.stringify(tag))}) > 0`;

/** One ordered stream of candidates: where it reads, the columns that order it, where the
 * candidate's tags are, and the join that reaches its echo row `e` for hydration (a tag stream
 * reads only its covering index until then). */
type Stream = { from: string; key: string[]; id: string; likes: string; tags: string; echoJoin: string };

function streams(rule: FeedRule): Stream[] {
  const byLikes = rule.sortBy === "mostLiked";
  if (rule.authors.length > 0) {
    // an author's echos: (author_id, id) or (author_id, likes_count, id)
    const index = byLikes ? "echos_author_likes" : "echos_author_id";
    return rule.authors.map((a) => ({
      from: `echos e INDEXED BY ${index}`,
      key: [`e.author_id = ${lit(a)}`],
      id: "e.id",
      likes: "e.likes_count",
      tags: "e.tags",
      echoJoin: "",
    }));
  }
  const tagStream = (tagExpr: string): Stream => ({
    // covering indexes: (tag, echo_id, tags) and (tag, likes_count, echo_id, tags)
    from: `echo_tags d INDEXED BY ${byLikes ? "echo_tags_tag_likes_tags" : "echo_tags_tag_echo"}`,
    key: [`d.tag = ${tagExpr}`],
    id: "d.echo_id",
    likes: "d.likes_count",
    tags: "d.tags",
    echoJoin: " JOIN echos e ON e.id = d.echo_id",
  });
  if (rule.includedTags.length > 0 && rule.tagMatchType === "all") {
    // the rarest included tag drives (tag counters are exact); the others are tested on the row
    const names = rule.includedTags.map(lit).join(", ");
    return [tagStream(`(SELECT name FROM tags WHERE name IN (${names}) ORDER BY echo_count, name LIMIT 1)`)];
  }
  if (rule.includedTags.length > 0) return rule.includedTags.map((t) => tagStream(lit(t)));
  return [{ from: byLikes ? "echos e INDEXED BY echos_likes" : "echos e", key: [], id: "e.id", likes: "e.likes_count", tags: "e.tags", echoJoin: "" }];
}

/** The bounds on id: the rule's dates and, for most-liked over a window, the window. */
function idBounds(rule: FeedRule, now: number): { from: number | null; to: number | null } {
  let from = rule.startDate;
  if (rule.sortBy === "mostLiked" && rule.sortTimeRange !== "allTime") {
    const windowStart = now - TIME_RANGE_MS[rule.sortTimeRange];
    from = from === null ? windowStart : Math.max(from, windowStart);
  }
  return { from, to: rule.endDate };
}

/** Tag conditions on a candidate (its stream's `tags`), beyond what the stream implies. */
function rowConditions(rule: FeedRule, s: Stream): string[] {
  const hasTag = (tag: string) => hasTagIn(s.tags, tag);
  const where: string[] = [];
  const authorDriven = rule.authors.length > 0;
  if (rule.includedTags.length > 0) {
    if (rule.tagMatchType === "all") where.push(...rule.includedTags.map(hasTag));
    else if (authorDriven) where.push(`(${rule.includedTags.map(hasTag).join(" OR ")})`);
  }
  where.push(...rule.excludedTags.map((t) => `NOT ${hasTag(t)}`));
  return where;
}

function seekCondition(rule: FeedRule, seek: Seek, s: Stream): string | null {
  if (!seek) return null;
  if (!isId(seek.id)) throw new Error("feed engine: bad cursor id");
  if (rule.sortBy === "oldestFirst") return `${s.id} > ${lit(seek.id)}`;
  if (rule.sortBy === "mostLiked") return `(${s.likes}, ${s.id}) < (${int(seek.likes ?? 0)}, ${lit(seek.id)})`;
  return `${s.id} < ${lit(seek.id)}`;
}

function orderBy(rule: FeedRule, id: string, likes: string): string {
  if (rule.sortBy === "oldestFirst") return `${id} ASC`;
  if (rule.sortBy === "mostLiked") return `${likes} DESC, ${id} DESC`;
  return `${id} DESC`;
}

/** The page statement: up to limit+1 hydrated echos after the seek key (or at the offset). */
export function feedPageQuery(rule: FeedRule, viewerId: string, now: number, seek: Seek, limit: number, offset: number): Stmt {
  if (!isId(viewerId)) throw new Error("feed engine: bad viewer id");
  const { from, to } = idBounds(rule, now);
  const all = streams(rule).map((s) => {
    const where = [...s.key, ...rowConditions(rule, s)];
    if (from !== null) where.push(`${s.id} >= ${lit(idFloor(from))}`);
    if (to !== null) where.push(`${s.id} <= ${lit(idCeil(to))}`);
    if (rule.excludeLikedEchos) {
      where.push(`NOT EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = ${s.id} AND l.user_id = ${lit(viewerId)})`);
    }
    const after = seekCondition(rule, seek, s);
    if (after) where.push(after);
    return { s, where: where.length ? where.join(" AND ") : "1" };
  });
  const pageCut = `LIMIT ${int(limit + 1)} OFFSET ${int(offset)}`;
  if (all.length === 1) {
    // one stream: its index gives the order; hydrate as it goes
    const { s, where } = all[0]!;
    return sql`SELECT ${echoColumns(viewerId)} FROM ${raw(s.from + s.echoJoin)} JOIN users u ON u.id = e.author_id
      WHERE ${raw(where)} ORDER BY ${raw(`${orderBy(rule, s.id, s.likes)} ${pageCut}`)}`;
  }
  const parts = all.map(({ s, where }) => `SELECT ${s.id} AS id, ${s.likes} AS lk FROM ${s.from} WHERE ${where}`);
  // Several streams: a merge of ordered streams (UNION also drops an echo that two streams
  // found, e.g. one carrying two included tags). D1 allows 5 terms in a compound SELECT, so more
  // streams merge in groups of 5, each group cut at the page's end.
  const order = orderBy(rule, "id", "lk");
  const take = int(limit + 1 + offset);
  if (parts.length > MAX_COMPOUND * MAX_COMPOUND) throw new Error("feed engine: too many streams");
  const groups: string[] = [];
  for (let i = 0; i < parts.length; i += MAX_COMPOUND) groups.push(parts.slice(i, i + MAX_COMPOUND).join(" UNION "));
  const merged =
    groups.length === 1
      ? groups[0]!
      : groups.map((g) => `SELECT id, lk FROM (${g} ORDER BY ${order} LIMIT ${take})`).join(" UNION ");
  const page = `${merged} ORDER BY ${order} ${pageCut}`;
  return sql`SELECT ${echoColumns(viewerId)} FROM (${raw(page)}) p JOIN echos e ON e.id = p.id
    JOIN users u ON u.id = e.author_id ORDER BY ${raw(orderBy(rule, "p.id", "p.lk"))}`;
}
