import { requireApiViewerId } from "~/modules/auth/index.server";
import { scrollEchos } from "~/modules/scroll/index.server";
import { apiHandler, appContext, methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/echos";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return scrollEchos(app, viewer._id, params.id, pageRequest(request));
  });
}

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
