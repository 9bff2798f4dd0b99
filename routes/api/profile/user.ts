import { requireApiViewerId } from "~/modules/auth/index.server";
import { getProfile } from "~/modules/profile/index.server";
import { apiHandler, appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/user";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return getProfile(app, viewer._id, params.userId);
  });
}
