import { requireApiViewerId } from "~/modules/auth/index.server";
import { searchUsers } from "~/modules/profile/index.server";
import { apiHandler, appContext, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/search.users";

export function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    await requireApiViewerId(app, request);
    return { users: await searchUsers(app, new URL(request.url).searchParams.get("q") ?? "") };
  });
}

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
