import { viewerApiRoute } from "~/modules/auth/index.server";
import { setFollow } from "~/modules/scroll/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/follow";

export const loader = () => methodNotAllowed();

/** POST follows, DELETE unfollows (idempotent). Not one's own scroll, not a private one. */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => ({ scroll: await setFollow(app, viewerId, params.id, request.method === "POST") }),
  { methods: ["POST", "DELETE"] },
);
