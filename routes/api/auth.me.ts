import { requireApiViewer } from "~/modules/auth/index.server";
import { apiHandler, appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/auth.me";

export function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const { sessionId: _, ...user } = await requireApiViewer(app, request);
    return user;
  });
}
