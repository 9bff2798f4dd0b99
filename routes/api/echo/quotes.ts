import { viewerApiRoute } from "~/modules/auth/index.server";
import { listQuotes } from "~/modules/echo/index.server";
import { methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/quotes";

/** The echos quoting an echo, newest first (decision 027), as any echo list pages. */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, params, request }) =>
  listQuotes(app, viewerId, params.id, pageRequest(request, undefined, QUOTES_MAX_LIMIT)),
);

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();

/** Six rows an echo at worst (echo, author, like, repost, the quoted echo and its author): 30 stay within 200. */
const QUOTES_MAX_LIMIT = 30;
