import { requireApiViewer } from "~/modules/auth/index.server";
import { apiRoute, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/auth.me";

export const loader = apiRoute<Route.LoaderArgs>(async ({ app, request }) => {
  const { sessionId: _, unreadNotifications: __, isModerator: ___, ...user } = await requireApiViewer(app, request);
  return user;
});

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
