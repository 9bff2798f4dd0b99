import { viewerApiRoute } from "~/modules/auth/index.server";
import { ProfileScrollsQuerySchema } from "~/modules/profile/index";
import { listUserScrolls } from "~/modules/scroll/index.server";
import { methodNotAllowed, pageRequest, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/scrolls";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request, params }) => {
  const { type } = parseInput(ProfileScrollsQuerySchema, { type: queryOf(request).type });
  return listUserScrolls(app, viewerId, params.userId, type, pageRequest(request, 10));
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
