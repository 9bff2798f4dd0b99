import { requireApiViewerId } from "~/modules/auth/index.server";
import { followList } from "~/modules/profile/index.server";
import { apiHandler, appContext, methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/following";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    await requireApiViewerId(app, request);
    return followList(app, params.userId, "following", pageRequest(request, 20));
  });
}

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
