import { viewerApiRoute } from "~/modules/auth/index.server";
import { removeEcho } from "~/modules/scroll/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/remove-echo";

export const loader = () => methodNotAllowed();

export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params }) => ({ scroll: await removeEcho(app, viewerId, params.id, params.echoId) }),
  { methods: ["DELETE"] },
);
