import { viewerApiRoute } from "~/modules/auth/index.server";
import { CommunityLimitSchema } from "~/modules/community/index";
import { trendingTags } from "~/modules/community/index.server";
import { clampLimit } from "~/modules/shared/index";
import { methodNotAllowed, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/tags";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, request }) => {
  const { limit } = parseInput(CommunityLimitSchema, { limit: queryOf(request).limit });
  return trendingTags(app, clampLimit(limit, 20));
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
