import { AccountActionSchema } from "~/modules/moderation/index";
import { actOnAccount, moderatorApiRoute } from "~/modules/moderation/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/user";

export const loader = () => methodNotAllowed();

/** Warn, limit, suspend an account, or lift a limit or suspension, with why (logged; the user reads it). */
export const action = moderatorApiRoute<Route.ActionArgs>(
  async ({ app, moderator, params, request }) => {
    const input = await parseJson(request, AccountActionSchema);
    return actOnAccount(app, moderator, params.userId, input.action, input.reason);
  },
  { methods: ["POST"] },
);
