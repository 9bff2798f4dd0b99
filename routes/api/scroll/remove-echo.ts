import { requireApiViewerId } from "~/modules/auth/index.server";
import { removeEcho } from "~/modules/scroll/index.server";
import { apiHandler, appContext, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/remove-echo";

export const loader = () => methodNotAllowed();

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return { scroll: await removeEcho(app, viewer._id, params.id, params.echoId) };
  });
}
