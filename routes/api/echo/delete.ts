import { viewerApiRoute } from "~/modules/auth/index.server";
import { deleteEcho } from "~/modules/echo/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/delete";

export const loader = () => methodNotAllowed();

export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params }) => {
    await deleteEcho(app, viewerId, params.id);
    return { deleted: true, _id: params.id };
  },
  { methods: ["DELETE"] },
);
