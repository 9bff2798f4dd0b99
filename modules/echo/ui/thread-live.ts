// What an open thread page (echo-detail.tsx) makes of a read of its thread after its socket was
// down (decision 016, issue 31): the same read the page loads with, compared with what the page
// holds. Pure, so the node tests hold it without a browser.
import type { Echo, Thread, ThreadItem } from "../schema";
import type { EchoEdit } from "./echo-store";

/** Every place a read of a thread shows: its ancestors, the echo, its replies and their first replies. */
export const threadItems = (t: Thread): ThreadItem[] => [...t.ancestors, t.echo, ...t.replies.flatMap((r) => [r, ...r.replies])];

export type ThreadChanges = {
  /** edited since (each with its `editedAt`: a newer one the socket brought stays) */
  edits: EchoEdit[];
  /** deleted since: places the page shows an echo in (a quoted echo's has no parent) */
  gone: { id: string; parentId: string | null }[];
  /** new replies under echos the page shows, oldest first, as a socket would have brought them */
  replies: Echo[];
  /** each shown echo's reply count now: it takes in what the read cannot show (a reply past the
   * first page or the first nested ones, a deleted one deeper than the shown levels) */
  counts: Map<string, number>;
};

/**
 * `holds(id)`: the page shows that echo (not as deleted). `under(parentId)`: the replies under
 * that parent the page shows. A reply of the read that the page lacks is new only if it is newer
 * than those (an older one moved into the first page when one before it went, and stays where it
 * is). A shown reply the read lacks where it would be — its parent's list read to its end, or a
 * newer sibling in it — went: a deleted reply with no replies leaves no place ("This echo was
 * deleted" is kept for one that has some, decision 024).
 */
export function threadChanges(fresh: Thread, holds: (id: string) => boolean, under: (parentId: string) => string[]): ThreadChanges {
  const changes: ThreadChanges = { edits: [], gone: [], replies: [], counts: new Map() };
  const lists: [string, ThreadItem[], boolean][] = [
    [fresh.echo._id, fresh.replies, !fresh.pagination.hasMore],
    ...fresh.replies.map((r): [string, ThreadItem[], boolean] => [r._id, r.replies, !r.moreReplies]),
  ];
  for (const [parentId, list, complete] of lists) {
    const read = new Set(list.map((i) => i._id));
    const last = list.reduce((max, i) => (i._id > max ? i._id : max), "");
    for (const id of under(parentId)) if (!read.has(id) && (complete || id < last)) changes.gone.push({ id, parentId });
  }
  const newest = (parentId: string) => under(parentId).reduce((max, id) => (id > max ? id : max), "");
  const above = new Set([fresh.echo._id, ...fresh.ancestors.map((a) => a._id)]);
  for (const item of threadItems(fresh)) {
    if (item.hidden) continue;
    const echo = item.echo;
    if (!echo) {
      if (holds(item._id)) changes.gone.push({ id: item._id, parentId: item.parentId });
      continue;
    }
    changes.counts.set(echo._id, echo.commentsCount);
    const { _id, content, tags, editedAt, warning, mutedWord, quoted } = echo;
    if (editedAt) changes.edits.push({ _id, content, tags, editedAt, warning, mutedWord });
    if (quoted?.state === "deleted") changes.gone.push({ id: quoted._id, parentId: null });
    const parent = item.parentId;
    if (!above.has(_id) && parent && !holds(_id) && _id > newest(parent)) changes.replies.push(echo);
  }
  return changes;
}
