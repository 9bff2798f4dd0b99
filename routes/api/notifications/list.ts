import { viewerApiRoute } from "~/modules/auth/index.server";
import { listNotifications } from "~/modules/notification/index.server";
import { methodNotAllowed, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/list";

/** The viewer's notification groups, newest first; `?cursor=` from the previous page's pagination. */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request }) =>
  listNotifications(app, viewerId, queryOf(request).cursor),
);

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
