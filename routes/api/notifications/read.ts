import { viewerApiRoute } from "~/modules/auth/index.server";
import { markAllRead } from "~/modules/notification/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/read";

export const loader = () => methodNotAllowed();

/** Mark all as read: answers `{ unreadCount: 0 }`. */
export const action = viewerApiRoute<Route.ActionArgs>(async ({ app, viewerId }) => markAllRead(app, viewerId), { methods: ["POST"] });
