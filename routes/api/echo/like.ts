import { viewerApiRoute } from "~/modules/auth/index.server";
import { setLike } from "~/modules/echo/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/like";

export const loader = () => methodNotAllowed();

/** POST likes, DELETE unlikes; both idempotent, both answer { likes, isLiked }. */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => setLike(app, viewerId, params.id, request.method === "POST"),
  { methods: ["POST", "DELETE"] },
);
