import type { Scroll } from "../schema";

/**
 * The /api/live query of a scroll page (decision 016): curations (newest added on top) and feeds
 * sorted newest first. A feed ordered otherwise would place a new echo elsewhere than on top, so
 * it gets no pill.
 */
export const liveQuery = (scroll: Scroll) =>
  scroll.type === "curation" || scroll.feedConfig?.sortBy === "newestFirst" ? `scroll=${scroll._id}` : undefined;

/** Home's: the selected scroll's, the viewer's Following timeline, or All echos (decision 016). */
export const homeLiveQuery = (selected: Scroll | null, following: boolean) => (selected ? liveQuery(selected) : following ? "following=1" : "all=1");
