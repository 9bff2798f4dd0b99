import { assignCase, moderatorApiRoute } from "~/modules/moderation/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/case.assign";

export const loader = () => methodNotAllowed();

/** Take a case (logged). */
export const action = moderatorApiRoute<Route.ActionArgs>(async ({ app, moderator, params }) => ({ case: await assignCase(app, moderator, params.id) }), {
  methods: ["POST"],
});
