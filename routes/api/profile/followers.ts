import { requireApiViewerId } from "~/modules/auth/index.server";
import { followList } from "~/modules/profile/index.server";
import { apiHandler, appContext, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/followers";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    await requireApiViewerId(app, request);
    return followList(app, params.userId, "followers", pageRequest(request, 20));
  });
}
