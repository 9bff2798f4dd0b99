import { moderatorApiRoute, queue } from "~/modules/moderation/index.server";
import { methodNotAllowed, pageRequest, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/queue";

/** The open cases (reported echos, appeals), latest report first, by cursor; `?user=` one account's cases. */
export const loader = moderatorApiRoute<Route.LoaderArgs>(async ({ app, request }) => {
  const user = queryOf(request).user;
  return queue(app, { ...pageRequest(request, 20), userId: typeof user === "string" ? user : undefined });
});

export const action = () => methodNotAllowed();
