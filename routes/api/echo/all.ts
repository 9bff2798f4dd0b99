import { viewerApiRoute } from "~/modules/auth/index.server";
import { AllQuerySchema } from "~/modules/echo/index";
import { listEchos } from "~/modules/echo/index.server";
import { methodNotAllowed, pageRequest, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/all";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request }) => {
  const { tag, user } = parseInput(AllQuerySchema, queryOf(request));
  return listEchos(app, viewerId, { tag: tag || undefined, user: user || undefined }, pageRequest(request));
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
