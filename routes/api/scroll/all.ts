import { viewerApiRoute } from "~/modules/auth/index.server";
import { listMyScrolls } from "~/modules/scroll/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/all";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId }) => ({ scrolls: await listMyScrolls(app, viewerId) }));

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
