import { viewerApiRoute } from "~/modules/auth/index.server";
import { ThreadQuerySchema } from "~/modules/echo/index";
import { listReposters } from "~/modules/echo/index.server";
import { methodNotAllowed, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/reposts";

/** Who reposted an echo, newest first, by cursor (decision 027). */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, params, request }) =>
  listReposters(app, viewerId, params.id, parseInput(ThreadQuerySchema, queryOf(request)).cursor),
);

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
