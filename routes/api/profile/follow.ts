import { viewerApiRoute } from "~/modules/auth/index.server";
import { setUserFollow } from "~/modules/profile/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/follow";

export const loader = () => methodNotAllowed();

/** Following users (product decisions): POST follows, DELETE unfollows; answers the profile. */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => setUserFollow(app, viewerId, params.userId, request.method === "POST"),
  { methods: ["POST", "DELETE"] },
);
