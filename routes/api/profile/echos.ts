import { viewerApiRoute } from "~/modules/auth/index.server";
import { listEchos } from "~/modules/echo/index.server";
import { getProfile } from "~/modules/profile/index.server";
import { LIST_MAX_LIMIT } from "~/modules/shared/index";
import { methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/echos";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request, params }) => {
  const req = pageRequest(request, 10, LIST_MAX_LIMIT.profileEchos);
  const [, page] = await Promise.all([getProfile(app, viewerId, params.userId), listEchos(app, viewerId, { user: params.userId }, req)]);
  return page;
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
