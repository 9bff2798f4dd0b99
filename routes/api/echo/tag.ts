import { viewerApiRoute } from "~/modules/auth/index.server";
import { TagQuerySchema } from "~/modules/echo/index";
import { listTag } from "~/modules/echo/index.server";
import { badRequest, ILL_FORMED_MESSAGE, isWellFormedText, LIST_MAX_LIMIT } from "~/modules/shared/index";
import { methodNotAllowed, pageRequest, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/tag";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request, params }) => {
  if (!isWellFormedText(params.name)) throw badRequest(`tag ${ILL_FORMED_MESSAGE}`);
  const { orderBy, timeframe, startDate, endDate } = parseInput(TagQuerySchema, queryOf(request));
  const filters = { orderBy, timeframe, startDate: startDate || undefined, endDate: endDate || undefined };
  return listTag(app, viewerId, params.name, filters, pageRequest(request, undefined, LIST_MAX_LIMIT.tagEchos));
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
