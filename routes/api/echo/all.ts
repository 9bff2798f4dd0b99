import { requireApiViewerId } from "~/modules/auth/index.server";
import { AllQuerySchema } from "~/modules/echo/index";
import { listEchos } from "~/modules/echo/index.server";
import { apiHandler, appContext, methodNotAllowed, pageRequest, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/all";

export function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    const { tag, user } = parseInput(AllQuerySchema, queryOf(request));
    return listEchos(app, viewer._id, { tag: tag || undefined, user: user || undefined }, pageRequest(request));
  });
}

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
