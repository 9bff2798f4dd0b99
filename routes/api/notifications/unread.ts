import { requireApiViewer } from "~/modules/auth/index.server";
import { apiRoute, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/unread";

/**
 * The bell's count (issue 29): `{ unreadCount }`, from the session check's own read of the viewer
 * (one row, one round trip), so an open page can keep its bell current cheaply.
 */
export const loader = apiRoute<Route.LoaderArgs>(async ({ app, request }) => ({
  unreadCount: Math.max(0, (await requireApiViewer(app, request)).unreadNotifications),
}));

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
