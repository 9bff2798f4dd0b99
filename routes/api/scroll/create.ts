import { requireApiViewerId } from "~/modules/auth/index.server";
import { CreateScrollSchema } from "~/modules/scroll/index";
import { createScroll } from "~/modules/scroll/index.server";
import { apiHandler, appContext, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/create";

export const loader = () => methodNotAllowed();

export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return { scroll: await createScroll(app, viewer._id, await parseJson(request, CreateScrollSchema)) };
  }, 201);
}
