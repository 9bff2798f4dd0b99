import { viewerApiRoute } from "~/modules/auth/index.server";
import { safetyList } from "~/modules/profile/index.server";
import { methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/me.mutes";

/** The accounts the viewer mutes (ended mutes are not listed), newest first, by cursor (only one's own list exists). */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request }) =>
  safetyList(app, viewerId, "mutes", pageRequest(request, 20)),
);

export const action = () => methodNotAllowed();
