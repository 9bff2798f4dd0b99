import { requireApiViewerId } from "~/modules/auth/index.server";
import { PopularQuerySchema } from "~/modules/community/index";
import { popularEchos } from "~/modules/community/index.server";
import { clampLimit } from "~/modules/shared/index";
import { apiHandler, appContext, methodNotAllowed, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/popular";

export function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    const q = queryOf(request);
    const { limit, period, sort } = parseInput(PopularQuerySchema, { limit: q.limit, period: q.period, sort: q.sort });
    return popularEchos(app, viewer._id, period, sort, clampLimit(limit, 10));
  });
}

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
