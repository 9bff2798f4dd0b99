import { viewerApiRoute } from "~/modules/auth/index.server";
import { AllQuerySchema } from "~/modules/echo/index";
import { listEchos } from "~/modules/echo/index.server";
import { LIST_MAX_LIMIT } from "~/modules/shared/index";
import { methodNotAllowed, pageRequest, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/all";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request }) => {
  const { tag, user } = parseInput(AllQuerySchema, queryOf(request));
  // by tag, each echo also costs its tag row; one author's read their name once
  const max = tag ? LIST_MAX_LIMIT.tagEchos : user ? LIST_MAX_LIMIT.profileEchos : LIST_MAX_LIMIT.allEchos;
  return listEchos(app, viewerId, { tag: tag || undefined, user: user || undefined }, pageRequest(request, undefined, max));
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
