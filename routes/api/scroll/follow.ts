import { requireApiViewerId } from "~/modules/auth/index.server";
import { setFollow } from "~/modules/scroll/index.server";
import { apiHandler, appContext, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/follow";

export const loader = () => methodNotAllowed();

/** POST follows, DELETE unfollows (idempotent). Not one's own scroll, not a private one. */
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return { scroll: await setFollow(app, viewer._id, params.id, request.method === "POST") };
  });
}
