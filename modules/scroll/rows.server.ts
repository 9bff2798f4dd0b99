// Scroll rows and lookups: the columns a scroll is read by (its own row only: names are stored
// with it), the scroll object the API answers, and one scroll by id as the viewer may see it.
import { type Placeholder } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { forbidden, isId, notFound, pagination } from "../shared/index";
import { batch, prepared, select, sql, tables, type AppContext, type RowOf, type SQL } from "../shared/index.server";
import { learnIndexes, reachOf, scrollIndexState, type IndexReach } from "./feed-index.server";
import { feedConfigOf, ruleColumns, toRule } from "./rule.server";
import { toEcho, type EchoRow, type PageRequest } from "../echo/index.server";
import type { FeedRule, Scroll, ScrollEchoPage } from "./schema";

const s = alias(tables.scrolls, "s");
/** A scroll's feed rule, as its row stores it (the engine reads it through toRule). */
const ruleFields = ruleColumns(s);

/** Whether the viewer follows the scroll: one scroll_follows entry read when they do, none when not. */
const followedBy = (viewerId: string | Placeholder) =>
  sql<number>`EXISTS (SELECT 1 FROM scroll_follows f WHERE f.scroll_id = ${s.id} AND f.user_id = ${viewerId})`;

/**
 * A scroll as the viewer sees it, from its own row only (`FROM scrolls s`): the creator's name,
 * the rule authors' names and what a fork shows of its original are stored with the scroll
 * (migrations/0016_scroll_names.sql), so a list reads one row per scroll, plus one scroll_follows
 * entry for each scroll the viewer follows (`isFollowing`, unless the caller already knows it).
 * Types and decoding (the rule's JSON lists, booleans) come from the schema.
 */
export function scrollColumns(viewerId: string | Placeholder, isFollowing: SQL<number> = followedBy(viewerId)) {
  return {
    id: s.id,
    creatorId: s.creatorId,
    creatorName: s.creatorName,
    name: s.name,
    description: s.description,
    type: s.type,
    isPrivate: s.isPrivate,
    createdAt: s.createdAt,
    ...ruleFields,
    followersCount: s.followersCount,
    echosCount: s.echosCount,
    forkCount: s.forkCount,
    isFollowing,
    /** [[id, userName], …] of the rule's authors that exist (stored with the rule) */
    authorNames: s.authorNames,
    // the original's id, name and creator when the viewer may see it (public, or theirs): null
    // otherwise, and once the original is deleted (forked_from cleared)
    forkedId: sql<string | null>`CASE WHEN ${s.forkedPrivate} = 0 OR ${s.forkedCreatorId} = ${viewerId} THEN ${s.forkedFrom} END`,
    forkedName: s.forkedName,
    forkedCreatorId: s.forkedCreatorId,
    forkedCreatorName: s.forkedCreatorName,
  };
}

export type ScrollRow = RowOf<ReturnType<typeof scrollColumns>>;

/** `SELECT <scroll columns> FROM scrolls s <rest>`: scrolls as the viewer sees them. */
export const scrollSelect = (viewerId: string | Placeholder, rest: SQL) => select(scrollColumns(viewerId), sql`FROM scrolls s ${rest}`);

/** The names of a scroll's rule authors, from its row (`authorNames`). */
export const authorNamesOf = (row: ScrollRow): Map<string, string> => new Map(row.authorNames);

export function toScroll(row: ScrollRow, viewerId: string): Scroll {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    isPrivate: row.isPrivate,
    creator: { _id: row.creatorId, userName: row.creatorName || "unknown" },
    savedBy: row.isFollowing === 1 ? [viewerId] : [],
    isFollowing: row.isFollowing === 1,
    followersCount: row.followersCount,
    echosCount: row.echosCount,
    createdAt: new Date(row.createdAt).toISOString(),
    forkCount: row.forkCount,
    forkedFrom:
      row.forkedId && row.forkedName !== null && row.forkedCreatorId
        ? { _id: row.forkedId, name: row.forkedName, creator: { _id: row.forkedCreatorId, userName: row.forkedCreatorName || "unknown" } }
        : null,
    feedConfig: row.type === "feed" ? feedConfigOf(toRule(row), authorNamesOf(row)) : null,
  };
}

const scrollById = prepared(["viewerId", "id"], (v) => scrollSelect(v.viewerId, sql`WHERE s.id = ${v.id}`));

async function loadScroll(app: AppContext, viewerId: string, id: string): Promise<{ scroll: Scroll; row: ScrollRow; reach: IndexReach | null }> {
  // with its rule's built index, if any (2 rows at most): the page read next — a web feed, a
  // scroll page after its lookup — comes from the index even in an isolate that never saw the feed
  const [rows, index] = await batch(app.db, [scrollById({ viewerId, id }), scrollIndexState(id)]);
  learnIndexes(index);
  if (!rows[0]) throw notFound("Scroll not found");
  return { scroll: toScroll(rows[0], viewerId), row: rows[0], reach: index[0] ? reachOf(index[0]) : null };
}

export const readScroll = async (app: AppContext, viewerId: string, id: string) => (await loadScroll(app, viewerId, id)).scroll;

/** The scroll as the viewer may see it: private scrolls answer 403 to everyone but the creator. */
export async function getScroll(app: AppContext, viewerId: string, id: string): Promise<Scroll> {
  return (await visibleScroll(app, viewerId, id)).scroll;
}

/** The scroll as getScroll answers it, with its feed rule as the engine reads it (live updates). */
export async function scrollWithRule(app: AppContext, viewerId: string, id: string): Promise<{ scroll: Scroll; rule: FeedRule }> {
  const { scroll, row } = await visibleScroll(app, viewerId, id);
  return { scroll, rule: toRule(row) };
}

export async function visibleScroll(app: AppContext, viewerId: string, id: string) {
  if (!isId(id)) throw notFound("Scroll not found");
  const loaded = await loadScroll(app, viewerId, id);
  if (loaded.scroll.isPrivate && loaded.scroll.creator._id !== viewerId) throw forbidden("This scroll is private");
  return loaded;
}

/** A scroll's page of echos as the API answers it (a feed's or a curation's). */
export const echoPage = (rows: EchoRow[], req: PageRequest, total: number, hasMore: boolean, nextCursor: string | null): ScrollEchoPage => ({
  echos: rows.map(toEcho),
  pagination: { ...pagination(req.page, req.limit, total, hasMore), nextCursor },
});
