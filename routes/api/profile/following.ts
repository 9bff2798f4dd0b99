import { requireApiViewerId } from "~/modules/auth/index.server";
import { followList } from "~/modules/profile/index.server";
import { apiHandler, appContext, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/following";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    await requireApiViewerId(app, request);
    return followList(app, params.userId, "following", pageRequest(request, 20));
  });
}
