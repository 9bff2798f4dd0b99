import { viewerApiRoute } from "~/modules/auth/index.server";
import { SearchUsersQuerySchema } from "~/modules/profile/index";
import { searchUsers } from "~/modules/profile/index.server";
import { methodNotAllowed, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/search.users";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, request }) => ({
  // queryOf refuses an ill-formed q (400) rather than searching for it
  users: await searchUsers(app, parseInput(SearchUsersQuerySchema, { q: queryOf(request).q }).q),
}));

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
