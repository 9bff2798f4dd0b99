// POST /api/scroll/{id}/fork (issue 16): the viewer's own feed with a public feed's rules, named
// "<name> (fork)" ("(fork 2)" for a second one) and pointing back at it; private until its
// creator shares it (issue 29; docs/decisions/012-preview-why-fork.md).
import { badRequest, clampChars, forbidden, isId, newId, notFound } from "../shared/index";
import { eq } from "drizzle-orm";
import { batch, batchUnderLimit, select, sql, tables, type AppContext } from "../shared/index.server";
import { MAX_NAME, type Scroll } from "./schema";
import { scrollSelect, toScroll } from "./rows.server";
import { scrollIndexState } from "./feed-index.server";
import { feedHintSaved, reachOfState } from "./feed-hint.server";
import { toRule } from "./rule.server";

/** " (fork)" for one's first fork of a feed, " (fork 2)", " (fork 3)"… for the next (issue 29). */
export const forkSuffix = (nth: number) => (nth <= 1 ? " (fork)" : ` (fork ${nth})`);

/** "<name> (fork)", the name cut (by characters as a person counts them) so that the whole stays
 * within the name limit. */
export const forkName = (name: string, nth = 1) => clampChars(name, MAX_NAME - forkSuffix(nth).length) + forkSuffix(nth);

/**
 * Fork a feed the viewer may see (403 someone else's private scroll, 404 unknown, 400 a
 * curation), in one batch after the session check: the insert copies the rule from the
 * original's row on the condition that it is a feed the viewer may see, under the create limit;
 * the original's fork count follows by trigger in the same transaction
 * (migrations/0011_scroll_forks.sql); the new scroll and the original (which says why nothing was
 * written) are read in the same batch.
 */
export async function forkScroll(app: AppContext, viewerId: string, id: string): Promise<Scroll> {
  if (!isId(id)) throw notFound("Scroll not found");
  const forkId = newId();
  // SQLite cuts by code points, which is forkName's cut unless a long name holds characters of
  // several code points (then the name is set again below)
  // the viewer's how-many-th fork of it: two forks are not both "… (fork)" (issue 29); counted
  // among the viewer's own scrolls (their creator index), not among every fork of a popular feed
  const nth = sql`(SELECT COUNT(*) + 1 FROM scrolls f WHERE f.creator_id = ${viewerId} AND f.forked_from = ${id})`;
  const suffix = sql`(CASE WHEN ${nth} = 1 THEN ' (fork)' ELSE ' (fork ' || ${nth} || ')' END)`;
  const keep = sql`(${MAX_NAME} - length(${suffix}))`;
  const name = sql`CASE WHEN length(o.name) <= ${keep} THEN o.name ELSE substr(o.name, 1, ${keep}) END || ${suffix}`;
  const { scrolls } = tables;
  const [, rows, originals, indexState] = await batchUnderLimit(
    app.db,
    "scrollCreate",
    viewerId,
    (within) => [
      // the rule's stored author names are copied with it, and what the fork shows of its original
      // (name, creator, privacy; migrations/0016_scroll_names.sql keeps name and privacy current)
      sql`INSERT INTO scrolls (id, creator_id, name, description, type, is_private, created_at, tag_match_type,
        included_tags, excluded_tags, authors, sort_by, sort_time_range, exclude_liked_echos, start_date, end_date, replies, forked_from, rule_key,
        creator_name, author_names, forked_name, forked_creator_id, forked_creator_name, forked_private)
        SELECT ${forkId}, ${viewerId}, ${name}, o.description, 'feed', 1, ${Date.now()}, o.tag_match_type,
        o.included_tags, o.excluded_tags, o.authors, o.sort_by, o.sort_time_range, o.exclude_liked_echos, o.start_date, o.end_date, o.replies, o.id, o.rule_key,
        cu.user_name, o.author_names, o.name, o.creator_id, o.creator_name, o.is_private
        FROM scrolls o JOIN users cu ON cu.id = ${viewerId}
        WHERE o.id = ${id} AND o.type = 'feed' AND (o.is_private = 0 OR o.creator_id = ${viewerId}) AND ${within}`,
      scrollSelect(viewerId, sql`WHERE s.id = ${forkId}`),
      select(
        { id: scrolls.id, name: scrolls.name, type: scrolls.type, isPrivate: scrolls.isPrivate, creatorId: scrolls.creatorId },
        sql`FROM scrolls WHERE id = ${id}`,
      ),
      // the shared index's state, for the fork's hint (decision 020)
      scrollIndexState(forkId),
    ],
  );
  const original = originals[0];
  if (!original) throw notFound("Scroll not found");
  if (original.isPrivate && original.creatorId !== viewerId) throw forbidden("This scroll is private");
  if (original.type !== "feed" || !rows[0]) throw badRequest("Only feed scrolls can be forked");
  const fork = toScroll(rows[0], viewerId);
  const wanted = forkName(original.name, Number(/ \(fork (\d+)\)$/.exec(fork.name)?.[1] ?? 1));
  if (fork.name !== wanted) {
    await batch(app.db, [app.db.update(scrolls).set({ name: wanted }).where(eq(scrolls.id, forkId))]);
    fork.name = wanted;
  }
  // a cold isolate's first page of the fork rides in its lookup's round trip (decision 020)
  feedHintSaved(app, forkId, toRule(rows[0]), reachOfState(indexState), false);
  return fork;
}
