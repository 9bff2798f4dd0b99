import { viewerApiRoute } from "~/modules/auth/index.server";
import { AppealSchema } from "~/modules/moderation/index";
import { appeal } from "~/modules/moderation/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/appeal";

export const loader = () => methodNotAllowed();

/** Appeal an action that concerned you, once: it opens a case in the moderators' queue. */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => ({ notice: await appeal(app, viewerId, params.actionId, (await parseJson(request, AppealSchema)).text) }),
  { methods: ["POST"], status: 201 },
);
