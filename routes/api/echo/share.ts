import { viewerApiRoute } from "~/modules/auth/index.server";
import { shareEcho } from "~/modules/echo/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/share";

export const loader = () => methodNotAllowed();

export const action = viewerApiRoute<Route.ActionArgs>(async ({ app, viewerId, params }) => shareEcho(app, viewerId, params.id), {
  methods: ["POST"],
});
