import { requireApiViewerId } from "~/modules/auth/index.server";
import { setLike } from "~/modules/echo/index.server";
import { apiHandler, appContext, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/like";

export const loader = () => methodNotAllowed();

/** POST likes, DELETE unlikes; both idempotent, both answer { likes, isLiked }. */
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return setLike(app, viewer._id, params.id, request.method === "POST");
  });
}
