import { requireApiViewerId } from "~/modules/auth/index.server";
import { listMyScrolls } from "~/modules/scroll/index.server";
import { apiHandler, appContext, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/all";

export function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return { scrolls: await listMyScrolls(app, viewer._id) };
  });
}

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
