import { auditLog, moderatorApiRoute } from "~/modules/moderation/index.server";
import { methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/log";

/** The audit log: every moderator action, newest first, by cursor. */
export const loader = moderatorApiRoute<Route.LoaderArgs>(async ({ app, request }) => auditLog(app, pageRequest(request, 20)));

export const action = () => methodNotAllowed();
