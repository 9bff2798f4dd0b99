import { viewerApiRoute } from "~/modules/auth/index.server";
import { searchUsers } from "~/modules/profile/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/search.users";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, request }) => ({
  users: await searchUsers(app, new URL(request.url).searchParams.get("q") ?? ""),
}));

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
