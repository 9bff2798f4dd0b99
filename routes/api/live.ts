import { viewerApiRoute } from "~/modules/auth/index.server";
import { openLiveSocket } from "~/modules/live/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/live";

/** New echos as they are posted, over a WebSocket (decision 016). */
export const loader = viewerApiRoute<Route.LoaderArgs>(({ app, viewerId, request }) => openLiveSocket(app, viewerId, request));

export const action = () => methodNotAllowed();
