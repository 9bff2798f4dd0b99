import { requireApiViewerId } from "~/modules/auth/index.server";
import { AddEchoSchema } from "~/modules/scroll/index";
import { addEcho } from "~/modules/scroll/index.server";
import { apiHandler, appContext, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/add-echo";

export const loader = () => methodNotAllowed();

export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    const { echoId } = await parseJson(request, AddEchoSchema);
    return { scroll: await addEcho(app, viewer._id, params.id, echoId) };
  });
}
