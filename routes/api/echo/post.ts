import { requireApiViewerId } from "~/modules/auth/index.server";
import { PostEchoSchema } from "~/modules/echo/index";
import { postEcho } from "~/modules/echo/index.server";
import { apiHandler, appContext, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/post";

export const loader = () => methodNotAllowed();

export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return { echo: await postEcho(app, viewer._id, await parseJson(request, PostEchoSchema)) };
  }, 201);
}
