import { viewerApiRoute } from "~/modules/auth/index.server";
import { scrollEchos } from "~/modules/scroll/index.server";
import { LIST_MAX_LIMIT } from "~/modules/shared/index";
import { methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/echos";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request, params }) =>
  scrollEchos(app, viewerId, params.id, pageRequest(request, undefined, LIST_MAX_LIMIT.scrollEchos)),
);

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
