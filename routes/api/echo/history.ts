import { viewerApiRoute } from "~/modules/auth/index.server";
import { HistoryQuerySchema } from "~/modules/echo/index";
import { echoHistory } from "~/modules/echo/index.server";
import { methodNotAllowed, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/history";

/** An echo's earlier versions, newest first (decision 025): whoever may read the echo may read them. */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, params, request }) =>
  echoHistory(app, params.id, parseInput(HistoryQuerySchema, queryOf(request)).cursor),
);

export const action = () => methodNotAllowed();
