import { viewerApiRoute } from "~/modules/auth/index.server";
import { listMyScrolls, myScrollsQuery } from "~/modules/scroll/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/all";

/**
 * `{ scrolls }` as the spec says, a page at a time: `?cursor` (from `pagination.nextCursor`) and
 * `?limit` (1–12, default 10). A creator of hundreds of scrolls no longer reads them all per call.
 */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request }) => {
  const { cursor, limit } = myScrollsQuery(request);
  const page = await listMyScrolls(app, viewerId, { cursor, limit });
  return { scrolls: page.scrolls, pagination: { limit, hasMore: page.nextCursor !== null, nextCursor: page.nextCursor } };
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
