import { requireApiViewerId } from "~/modules/auth/index.server";
import { TagQuerySchema } from "~/modules/echo/index";
import { listTag } from "~/modules/echo/index.server";
import { apiHandler, appContext, methodNotAllowed, pageRequest, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/tag";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    const { orderBy, timeframe, startDate, endDate } = parseInput(TagQuerySchema, queryOf(request));
    return listTag(
      app,
      viewer._id,
      params.name,
      { orderBy, timeframe, startDate: startDate || undefined, endDate: endDate || undefined },
      pageRequest(request),
    );
  });
}

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
