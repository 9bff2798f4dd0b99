import { requireApiViewerId } from "~/modules/auth/index.server";
import { setUserFollow } from "~/modules/profile/index.server";
import { apiHandler, appContext, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/follow";

export const loader = () => methodNotAllowed();

/** Following users (product decisions): POST follows, DELETE unfollows; answers the profile. */
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return setUserFollow(app, viewer._id, params.userId, request.method === "POST");
  });
}
