// POST /api/scroll/{id}/fork (issue 16): the viewer's own feed with a public feed's rules, named
// "<name> (fork)" and pointing back at it (docs/decisions/012-preview-why-fork.md).
import { badRequest, clampChars, newId, notFound } from "../shared/index";
import { batchWithinLimit, sql, type AppContext } from "../shared/index.server";
import { MAX_NAME, type Scroll } from "./schema";
import { authorNames, nameMap, scrollSelect, toScroll, visibleScroll, type ScrollRow } from "./scroll.server";

const FORK_SUFFIX = " (fork)";

/** "<name> (fork)", the name cut so that the whole stays within the name limit. */
export const forkName = (name: string) => clampChars(name, MAX_NAME - FORK_SUFFIX.length) + FORK_SUFFIX;

/**
 * Fork a feed the viewer may see (403 someone else's private scroll, 404 unknown, 400 a
 * curation). The insert copies the rule from the original's row and is conditioned on it still
 * being a feed the viewer may see, under the create limit; the original's fork count follows by
 * trigger in the same transaction (migrations/0011_scroll_forks.sql), and the new scroll is read
 * in the same batch.
 */
export async function forkScroll(app: AppContext, viewerId: string, id: string): Promise<Scroll> {
  const { scroll } = await visibleScroll(app, viewerId, id);
  if (scroll.type !== "feed") throw badRequest("Only feed scrolls can be forked");
  const forkId = newId();
  const [, rows, names] = await batchWithinLimit<[unknown[], ScrollRow[], { id: string; user_name: string }[]]>(app.db, "scrollCreate", viewerId, (within) => [
    sql`INSERT INTO scrolls (id, creator_id, name, description, type, is_private, created_at, tag_match_type,
      included_tags, excluded_tags, authors, sort_by, sort_time_range, exclude_liked_echos, start_date, end_date, forked_from)
      SELECT ${forkId}, ${viewerId}, ${forkName(scroll.name)}, o.description, 'feed', 0, ${Date.now()}, o.tag_match_type,
      o.included_tags, o.excluded_tags, o.authors, o.sort_by, o.sort_time_range, o.exclude_liked_echos, o.start_date, o.end_date, o.id
      FROM scrolls o WHERE o.id = ${id} AND o.type = 'feed' AND (o.is_private = 0 OR o.creator_id = ${viewerId}) AND ${within}`,
    sql`${scrollSelect(viewerId)} WHERE s.id = ${forkId}`,
    authorNames(sql`s.id = ${forkId}`),
  ]);
  // the original went away (or private) between the two reads: nothing was written, and the
  // read says which (404 or 403)
  if (!rows[0]) {
    await visibleScroll(app, viewerId, id);
    throw notFound("Scroll not found");
  }
  return toScroll(rows[0], nameMap(names), viewerId);
}
