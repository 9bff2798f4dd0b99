// The /api routes only moderators reach (decision 029): a guest gets 401, any other user 403.
import { requireApiViewer, type Viewer } from "../auth/index.server";
import { forbidden } from "../shared/index";
import { apiRoute, type ApiRouteOptions, type AppContext, type RouteArgs } from "../shared/index.server";

export const MODERATORS_ONLY = "Only moderators can do this";

/**
 * An /api loader or action for moderators. The role rides in the session check's own row (no
 * statement of its own); the check runs before the request's body is read, so a non-moderator
 * learns nothing from a route's validation.
 */
export function moderatorApiRoute<A extends RouteArgs>(
  run: (args: A & { app: AppContext; moderator: Viewer }) => Promise<unknown>,
  options?: ApiRouteOptions,
) {
  return apiRoute<A>(async (args) => {
    const moderator = await requireApiViewer(args.app, args.request);
    if (!moderator.isModerator) throw forbidden(MODERATORS_ONLY);
    return run({ ...args, moderator });
  }, options);
}
