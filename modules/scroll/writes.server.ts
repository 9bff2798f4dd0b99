// Writes to scrolls: create, edit and delete one's own scroll (a feed's rule with its authors'
// names and its index), add and remove a curation's echos, follow and unfollow. A fork is
// fork.server.ts.
import { and, eq } from "drizzle-orm";
import { badRequest, conflict, forbidden, isId, newId, notFound } from "../shared/index";
import { batch, batchUnderLimit, controlLive, select, sql, tables, type AppContext, type SQL } from "../shared/index.server";
import { echoColumns, publishCurationAdd, toEcho } from "../echo/index.server";
import { indexKeyOf, indexStatements, scrollIndexState, startBackfill } from "./feed-index.server";
import { feedHintSaved, reachOfState } from "./feed-hint.server";
import { ruleAssignments, ruleOfConfig, storedRule } from "./rule.server";
import { getScroll, readScroll, scrollSelect, toScroll } from "./rows.server";
import type { CreateScrollInput, Scroll, UpdateScrollInput } from "./schema";

/**
 * The stored `author_names` of a rule's authors (a JSON list of ids): [[id, userName], …] of those
 * that exist, in the rule's order — what a scroll object names them by. Read once, when the rule
 * is written (at most 25 users rows); user names never change, and a deleted account's pair is
 * removed by trigger (migrations/0016_scroll_names.sql).
 */
export const namesOfAuthors = (authorsJson: string) =>
  sql`(SELECT json_group_array(json_array(u.id, u.user_name)) FROM json_each(${authorsJson}) j JOIN users u ON u.id = j.value)`;

async function assertAuthorsExist(app: AppContext, authors: string[]) {
  if (authors.length === 0) return;
  const [rows] = await batch(app.db, [
    select({ n: sql<number>`COUNT(*)` }, sql`FROM users WHERE id IN (SELECT value FROM json_each(${JSON.stringify(authors)}))`),
  ]);
  if (rows[0]?.n !== authors.length) throw badRequest("One of the chosen authors no longer exists");
}

export async function createScroll(app: AppContext, viewerId: string, input: CreateScrollInput): Promise<Scroll> {
  if (input.type === "curation" && input.feedConfig) throw badRequest("feedConfig is only for feed scrolls");
  const feedRule = ruleOfConfig(input.type === "feed" ? input.feedConfig : null);
  const rule = storedRule(feedRule);
  await assertAuthorsExist(app, feedRule.authors);
  const id = newId();
  const indexed = input.type === "feed";
  const [, ...after] = await batchUnderLimit(app.db, "scrollCreate", viewerId, (within) => [
    sql`INSERT INTO scrolls (id, creator_id, name, description, type, is_private, created_at, tag_match_type,
      included_tags, excluded_tags, authors, sort_by, sort_time_range, exclude_liked_echos, start_date, end_date,
      replies, creator_name, author_names, rule_key)
      SELECT ${id}, ${viewerId}, ${input.name}, ${input.description ?? ""}, ${input.type}, ${input.isPrivate ? 1 : 0},
      ${Date.now()}, ${rule.tagMatchType}, ${rule.includedTags}, ${rule.excludedTags}, ${rule.authors},
      ${rule.sortBy}, ${rule.sortTimeRange}, ${rule.excludeLikedEchos}, ${rule.startDate}, ${rule.endDate},
      ${rule.replies}, cu.user_name, ${namesOfAuthors(String(rule.authors))}, ${input.type === "feed" ? indexKeyOf(feedRule) : null}
      FROM users cu WHERE cu.id = ${viewerId} AND ${within}`,
    // the feed's index (decision 020): shared with every scroll of the same rule
    ...(indexed ? indexStatements(feedRule, within) : []),
    // and its state, for the hint a cold isolate reads (ready when another scroll has the rule)
    ...(input.type === "feed" ? [scrollIndexState(id)] : []),
  ]);
  if (indexed) startBackfill(app, feedRule);
  if (input.type === "feed") feedHintSaved(app, id, feedRule, reachOfState(after[after.length - 1]), false);
  return readScroll(app, viewerId, id);
}

async function ownScroll(app: AppContext, viewerId: string, id: string): Promise<Scroll> {
  const scroll = await getScroll(app, viewerId, id);
  if (scroll.creator._id !== viewerId) throw forbidden("Only the creator can change this scroll");
  return scroll;
}

export async function updateScroll(app: AppContext, viewerId: string, id: string, input: UpdateScrollInput): Promise<Scroll> {
  const scroll = await ownScroll(app, viewerId, id);
  if (input.type && input.type !== scroll.type) throw badRequest("type cannot change");
  if (scroll.type === "curation" && input.feedConfig) throw badRequest("feedConfig is only for feed scrolls");
  const sets: SQL[] = [];
  if (input.name !== undefined) sets.push(sql`name = ${input.name}`);
  if (input.description !== undefined) sets.push(sql`description = ${input.description ?? ""}`);
  if (input.isPrivate !== undefined) sets.push(sql`is_private = ${input.isPrivate ? 1 : 0}`);
  const newRule = input.feedConfig ? ruleOfConfig(input.feedConfig) : null;
  if (input.feedConfig && newRule) {
    await assertAuthorsExist(app, input.feedConfig.authors);
    sets.push(...ruleAssignments(newRule));
    // the authors' names go with the rule, in the same statement, and so does its index key
    sets.push(sql`author_names = ${namesOfAuthors(String(storedRule(newRule).authors))}`);
    sets.push(sql`rule_key = ${indexKeyOf(newRule)}`);
  }
  if (sets.length > 0) {
    const assignments = sets.reduce((acc, s, i) => (i === 0 ? s : sql`${acc}, ${s}`));
    const [, ...after] = await batchUnderLimit(app.db, "scrollEdit", viewerId, (within) => [
      sql`UPDATE scrolls SET ${assignments} WHERE id = ${id} AND creator_id = ${viewerId} AND ${within}`,
      ...(newRule ? [...indexStatements(newRule, within), scrollIndexState(id)] : []),
    ]);
    // an edited rule reads its own index (built now if no scroll had that rule), and a cold
    // isolate's hint of the scroll names it, with the index's reach when it is ready (feed-hint.server.ts)
    if (newRule) {
      startBackfill(app, newRule);
      feedHintSaved(app, id, newRule, reachOfState(after[after.length - 1]));
    }
  }
  const updated = await readScroll(app, viewerId, id);
  // made private: the other viewers' live sockets on it close (only the creator may still watch)
  if (updated.isPrivate && !scroll.isPrivate) await controlLive(app, viewerId, { op: "scroll", creatorId: viewerId, scrollId: id, visibleTo: viewerId });
  return updated;
}

export async function deleteScroll(app: AppContext, viewerId: string, id: string): Promise<void> {
  await ownScroll(app, viewerId, id);
  await batch(app.db, [app.db.delete(tables.scrolls).where(and(eq(tables.scrolls.id, id), eq(tables.scrolls.creatorId, viewerId)))]);
  // every live socket on it closes
  await controlLive(app, viewerId, { op: "scroll", creatorId: viewerId, scrollId: id, visibleTo: null });
}

/**
 * A curation holds at most this many echos (issue 28): adding past it is a 409 that writes
 * nothing. Its pages stay within budget at any size (keyset on scroll_echos_added, the total
 * from the scroll's counter), and the cap bounds the export of its items and a fork's copy.
 */
export const CURATION_MAX_ECHOS = 10_000;

export const curationFull = () => conflict(`This curation is full: a curation holds at most ${CURATION_MAX_ECHOS.toLocaleString("en-US")} echos`);

/**
 * Add an echo to one's own curation; adding twice is a no-op that says so (`alreadyInScroll`), so
 * the UI doesn't claim it "added" an echo that was already there. Under the account's curate
 * limit and the curation's size cap, in the insert's own batch.
 */
export async function addEcho(
  app: AppContext,
  viewerId: string,
  id: string,
  echoId: string,
): Promise<{ scroll: Scroll; alreadyInScroll: boolean }> {
  const scroll = await ownScroll(app, viewerId, id);
  if (scroll.type !== "curation") throw badRequest("Echos can only be added to curation scrolls");
  if (!isId(echoId)) throw notFound("Echo not found");
  // the batch runs in order: the first reads see the curation before the insert
  const [before, size, , exists] = await batchUnderLimit(app.db, "curate", viewerId, (within) => [
    select({ n: sql<number>`count(*)` }, sql`FROM scroll_echos WHERE scroll_id = ${id} AND echo_id = ${echoId}`),
    select({ n: tables.scrolls.echosCount }, sql`FROM scrolls WHERE ${tables.scrolls.id} = ${id}`),
    sql`INSERT INTO scroll_echos (scroll_id, echo_id, added_at)
        SELECT ${id}, ${echoId}, ${Date.now()} WHERE EXISTS (SELECT 1 FROM echos WHERE id = ${echoId}) AND ${within}
          AND (SELECT echos_count FROM scrolls WHERE id = ${id}) < ${CURATION_MAX_ECHOS}
        ON CONFLICT DO NOTHING`,
    // the echo as live messages carry it: no viewer, so not liked (each reader's like state is
    // theirs to load; decision 016)
    select(echoColumns(""), sql`FROM echos e JOIN users u ON u.id = e.author_id WHERE e.id = ${echoId}`),
  ]);
  if (!exists[0]) throw notFound("Echo not found");
  const alreadyInScroll = (before[0]?.n ?? 0) > 0;
  if (!alreadyInScroll && (size[0]?.n ?? 0) >= CURATION_MAX_ECHOS) throw curationFull();
  // the curation's open pages show it in their "new echos" pill
  // (a private curation's: its creator's sockets only, whatever reached the object meanwhile)
  if (!alreadyInScroll) publishCurationAdd(app, id, toEcho(exists[0]), scroll.isPrivate ? viewerId : undefined);
  return { scroll: await readScroll(app, viewerId, id), alreadyInScroll };
}

export async function removeEcho(app: AppContext, viewerId: string, id: string, echoId: string): Promise<Scroll> {
  const scroll = await ownScroll(app, viewerId, id);
  if (scroll.type !== "curation") throw badRequest("Echos can only be removed from curation scrolls");
  const { scrollEchos } = tables;
  await batchUnderLimit(app.db, "curate", viewerId, (within) => [app.db.delete(scrollEchos).where(and(eq(scrollEchos.scrollId, id), eq(scrollEchos.echoId, echoId), within))]);
  return readScroll(app, viewerId, id);
}

export async function setFollow(app: AppContext, viewerId: string, id: string, follow: boolean): Promise<Scroll> {
  if (!isId(id)) throw notFound("Scroll not found");
  // one batch, under the account's follow limit: the rules (public, not one's own) are
  // conditions of the write; the scroll read after it says which rule stopped it
  const [, rows] = await batchUnderLimit(app.db, "follow", viewerId, (within) => [
    follow
      ? sql`INSERT INTO scroll_follows (scroll_id, user_id, created_at)
          SELECT ${id}, ${viewerId}, ${Date.now()}
          WHERE EXISTS (SELECT 1 FROM scrolls WHERE id = ${id} AND is_private = 0 AND creator_id != ${viewerId}) AND ${within}
          ON CONFLICT DO NOTHING`
      : app.db.delete(tables.scrollFollows).where(and(eq(tables.scrollFollows.scrollId, id), eq(tables.scrollFollows.userId, viewerId), within)),
    scrollSelect(viewerId, sql`WHERE s.id = ${id}`),
  ]);
  const row = rows[0];
  if (!row) throw notFound("Scroll not found");
  const scroll = toScroll(row, viewerId);
  if (scroll.isPrivate && scroll.creator._id !== viewerId) throw forbidden("This scroll is private");
  if (scroll.creator._id === viewerId) throw badRequest("You cannot follow your own scroll");
  return scroll;
}
