import { requireApiViewerId } from "~/modules/auth/index.server";
import { listEchos } from "~/modules/echo/index.server";
import { getProfile } from "~/modules/profile/index.server";
import { apiHandler, appContext, methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/echos";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    const req = pageRequest(request, 10);
    const [, page] = await Promise.all([
      getProfile(app, viewer._id, params.userId),
      listEchos(app, viewer._id, { user: params.userId }, req),
    ]);
    return page;
  });
}

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
