import { viewerApiRoute } from "~/modules/auth/index.server";
import { listFollowing } from "~/modules/echo/index.server";
import { LIST_MAX_LIMIT } from "~/modules/shared/index";
import { methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/following";

/** The viewer's Following timeline (decision 013): echos by the people they follow, newest first. */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request }) => listFollowing(app, viewerId, pageRequest(request, undefined, LIST_MAX_LIMIT.following)));

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
