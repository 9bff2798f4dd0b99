import { checkCredentials } from "~/modules/auth/index.server";
import { SuspensionAppealSchema } from "~/modules/moderation/index";
import { appeal, latestSuspension } from "~/modules/moderation/index.server";
import { apiRoute, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/appeal-suspension";

export const loader = () => methodNotAllowed();

/**
 * A suspended account cannot sign in: it appeals its suspension with its name and password
 * (checked under the login limits) instead of a session.
 */
export const action = apiRoute<Route.ActionArgs>(
  async ({ app, request }) => {
    const input = await parseJson(request, SuspensionAppealSchema);
    const user = await checkCredentials(app, input);
    return { notice: await appeal(app, user.id, await latestSuspension(app, user.id), input.text) };
  },
  { methods: ["POST"], status: 201 },
);
