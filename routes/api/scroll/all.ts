import { viewerApiRoute } from "~/modules/auth/index.server";
import { listMyScrolls, myScrollsQuery } from "~/modules/scroll/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/all";

/**
 * `{ scrolls }` as the spec says: with no parameters all of the viewer's scrolls up to 95
 * (product decisions say 100: the spec's client reads it once; 100 followed scrolls read 205
 * rows), newest first; `?cursor` (from `pagination.nextCursor`) pages beyond and `?limit` is
 * 1–95. At most 200 rows read per call (listMyScrolls).
 */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request }) => {
  const { cursor, limit } = myScrollsQuery(request);
  const page = await listMyScrolls(app, viewerId, { cursor, limit });
  return { scrolls: page.scrolls, pagination: { limit, hasMore: page.nextCursor !== null, nextCursor: page.nextCursor } };
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
