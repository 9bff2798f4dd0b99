import { viewerApiRoute } from "~/modules/auth/index.server";
import { CommunityLimitSchema } from "~/modules/community/index";
import { publicScrolls } from "~/modules/community/index.server";
import { clampLimit } from "~/modules/shared/index";
import { methodNotAllowed, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/scrolls";

/** GET /community/scrolls/public/{feed|curation}[?limit]: a bare array (product decisions). */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, request, params, viewerId }) => {
  const { limit } = parseInput(CommunityLimitSchema, { limit: queryOf(request).limit });
  const type = params.type === "curation" ? "curation" : "feed";
  return publicScrolls(app, viewerId, type, clampLimit(limit, 20));
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
