// The /api routes that need a signed-in viewer (all but sign-up, log-in and log-out).
import { apiRoute, type ApiRouteOptions, type AppContext, type RouteArgs } from "../shared/index.server";
import { requireApiViewerId } from "./auth.server";

/**
 * An /api loader or action for a signed-in viewer: `run` gets the AppContext and the viewer's id
 * (a guest gets 401 in the API's error shape before it runs). See `apiRoute` for the rest.
 */
export function viewerApiRoute<A extends RouteArgs>(
  run: (args: A & { app: AppContext; viewerId: string }) => Promise<unknown>,
  options?: ApiRouteOptions,
) {
  return apiRoute<A>(async (args) => run({ ...args, viewerId: await requireApiViewerId(args.app, args.request) }), options);
}
