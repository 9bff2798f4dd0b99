import { requireApiViewerId } from "~/modules/auth/index.server";
import { searchUsers } from "~/modules/profile/index.server";
import { apiHandler, appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/search.users";

export function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    await requireApiViewerId(app, request);
    return { users: await searchUsers(app, new URL(request.url).searchParams.get("q") ?? "") };
  });
}
