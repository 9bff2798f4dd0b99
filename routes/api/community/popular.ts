import { viewerApiRoute } from "~/modules/auth/index.server";
import { PopularQuerySchema } from "~/modules/community/index";
import { popularEchos } from "~/modules/community/index.server";
import { clampLimit } from "~/modules/shared/index";
import { methodNotAllowed, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/popular";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request }) => {
  const q = queryOf(request);
  const { limit, period, sort } = parseInput(PopularQuerySchema, { limit: q.limit, period: q.period, sort: q.sort });
  return popularEchos(app, viewerId, period, sort, clampLimit(limit, 10));
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
