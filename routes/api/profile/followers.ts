import { viewerApiRoute } from "~/modules/auth/index.server";
import { followList } from "~/modules/profile/index.server";
import { methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/followers";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, request, params }) =>
  followList(app, params.userId, "followers", pageRequest(request, 20)),
);

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
