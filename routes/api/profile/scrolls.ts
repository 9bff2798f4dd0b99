import { requireApiViewerId } from "~/modules/auth/index.server";
import { ProfileScrollsQuerySchema } from "~/modules/profile/index";
import { listUserScrolls } from "~/modules/scroll/index.server";
import { apiHandler, appContext, methodNotAllowed, pageRequest, parseInput, queryOf } from "~/modules/shared/index.server";
import type { Route } from "./+types/scrolls";

export function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    const { type } = parseInput(ProfileScrollsQuerySchema, { type: queryOf(request).type });
    return listUserScrolls(app, viewer._id, params.userId, type, pageRequest(request, 10));
  });
}

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
