import { viewerApiRoute } from "~/modules/auth/index.server";
import { exportResponse } from "~/modules/profile/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/export";

/** GET /profile/me/export: "Download my data", one streamed JSON file (docs/product-notes.md "Your data"). */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId }) => exportResponse(app, viewerId));

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
