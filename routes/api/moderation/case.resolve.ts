import { ResolveSchema } from "~/modules/moderation/index";
import { moderatorApiRoute, resolveCase } from "~/modules/moderation/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/case.resolve";

export const loader = () => methodNotAllowed();

/** Close a case with a note (logged). */
export const action = moderatorApiRoute<Route.ActionArgs>(
  async ({ app, moderator, params, request }) => ({ case: await resolveCase(app, moderator, params.id, (await parseJson(request, ResolveSchema)).note) }),
  { methods: ["POST"] },
);
