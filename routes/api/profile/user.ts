import { viewerApiRoute } from "~/modules/auth/index.server";
import { getProfile } from "~/modules/profile/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/user";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, params }) => getProfile(app, viewerId, params.userId));

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
