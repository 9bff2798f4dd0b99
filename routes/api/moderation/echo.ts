import { EchoActionSchema } from "~/modules/moderation/index";
import { actOnEcho, moderatorApiRoute } from "~/modules/moderation/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/echo";

export const loader = () => methodNotAllowed();

/** Hide an echo from everyone but its author, or show it again, with why (logged). */
export const action = moderatorApiRoute<Route.ActionArgs>(
  async ({ app, moderator, params, request }) => {
    const input = await parseJson(request, EchoActionSchema);
    return actOnEcho(app, moderator, params.id, input.hidden, input.reason);
  },
  { methods: ["POST"] },
);
