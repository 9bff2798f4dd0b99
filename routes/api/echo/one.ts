import { requireApiViewerId } from "~/modules/auth/index.server";
import { getEcho } from "~/modules/echo/index.server";
import { apiHandler, appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/one";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return { echo: await getEcho(app, viewer._id, params.id) };
  });
}
