import { requireApiViewerId } from "~/modules/auth/index.server";
import { getProfile } from "~/modules/profile/index.server";
import { apiHandler, appContext, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/user";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return getProfile(app, viewer._id, params.userId);
  });
}

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
