import { requireApiViewerId } from "~/modules/auth/index.server";
import { deleteEcho } from "~/modules/echo/index.server";
import { apiHandler, appContext, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/delete";

export const loader = () => methodNotAllowed();

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    await deleteEcho(app, viewer._id, params.id);
    return { deleted: true, _id: params.id };
  });
}
