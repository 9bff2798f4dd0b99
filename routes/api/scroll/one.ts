import { requireApiViewerId } from "~/modules/auth/index.server";
import { UpdateScrollSchema } from "~/modules/scroll/index";
import { deleteScroll, getScroll, updateScroll } from "~/modules/scroll/index.server";
import { apiHandler, appContext, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/one";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return { scroll: await getScroll(app, viewer._id, params.id) };
  });
}

/** DELETE removes the scroll (creator only); PATCH edits it (the edit screen). */
export function action({ request, context, params }: Route.ActionArgs) {
  const app = context.get(appContext);
  if (request.method === "DELETE") {
    return apiHandler(async () => {
      const viewer = { _id: await requireApiViewerId(app, request) };
      await deleteScroll(app, viewer._id, params.id);
      return { deleted: true, _id: params.id };
    });
  }
  if (request.method === "PATCH") {
    return apiHandler(async () => {
      const viewer = { _id: await requireApiViewerId(app, request) };
      return { scroll: await updateScroll(app, viewer._id, params.id, await parseJson(request, UpdateScrollSchema)) };
    });
  }
  return methodNotAllowed();
}
