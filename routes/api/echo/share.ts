import { requireApiViewerId } from "~/modules/auth/index.server";
import { shareEcho } from "~/modules/echo/index.server";
import { apiHandler, appContext, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/share";

export const loader = () => methodNotAllowed();

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return shareEcho(app, viewer._id, params.id);
  });
}
