import { viewerApiRoute } from "~/modules/auth/index.server";
import { ProfileScrollsQuerySchema } from "~/modules/profile/index";
import { listUserScrolls, SAVED_SCROLLS_MAX } from "~/modules/scroll/index.server";
import { methodNotAllowed, pageRequest, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/scrolls";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, request, params }) => {
  const { type } = parseInput(ProfileScrollsQuerySchema, { type: queryOf(request).type });
  // a saved list's skipped rows cost what listed ones do (an entry and a scroll each): its page
  // numbers reach as far as its largest page, deeper ones go by cursor
  return listUserScrolls(app, viewerId, params.userId, type, pageRequest(request, 10, type === "saved" ? SAVED_SCROLLS_MAX : undefined));
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
