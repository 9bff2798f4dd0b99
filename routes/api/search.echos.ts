import { viewerApiRoute } from "~/modules/auth/index.server";
import { searchEchos } from "~/modules/echo/index.server";
import { methodNotAllowed, pageRequest, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/search.echos";

// queryOf refuses an ill-formed q (400); searchEchos refuses an empty, blank or too long one
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request }) =>
  searchEchos(app, viewerId, queryOf(request).q, pageRequest(request)),
);

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
