import { viewerApiRoute } from "~/modules/auth/index.server";
import { getEcho } from "~/modules/echo/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/one";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, params }) => ({ echo: await getEcho(app, viewerId, params.id) }));

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
