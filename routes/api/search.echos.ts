import { viewerApiRoute } from "~/modules/auth/index.server";
import { SearchEchosQuerySchema } from "~/modules/echo/index";
import { searchEchos } from "~/modules/echo/index.server";
import { LIST_MAX_LIMIT } from "~/modules/shared/index";
import { methodNotAllowed, pageRequest, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/search.echos";

// queryOf refuses an ill-formed q (400); searchEchos refuses an empty, blank or too long one
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request }) =>
  searchEchos(app, viewerId, parseInput(SearchEchosQuerySchema, { q: queryOf(request).q }).q, pageRequest(request, undefined, LIST_MAX_LIMIT.searchEchos)),
);

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
