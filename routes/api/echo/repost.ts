import { viewerApiRoute } from "~/modules/auth/index.server";
import { setRepost } from "~/modules/echo/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/repost";

export const loader = () => methodNotAllowed();

/** POST reposts, DELETE undoes; both idempotent, both answer { reposts, isReposted } (decision 027). */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => setRepost(app, viewerId, params.id, request.method === "POST"),
  { methods: ["POST", "DELETE"] },
);
