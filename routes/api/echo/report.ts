import { requireApiViewerId } from "~/modules/auth/index.server";
import { ReportSchema } from "~/modules/echo/index";
import { reportEcho } from "~/modules/echo/index.server";
import { apiHandler, appContext, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/report";

export const loader = () => methodNotAllowed();

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    const { reason } = await parseJson(request, ReportSchema);
    return reportEcho(app, viewer._id, params.id, reason);
  }, 201);
}
