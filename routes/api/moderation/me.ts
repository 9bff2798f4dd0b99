import { requireApiViewer } from "~/modules/auth/index.server";
import { myModeration } from "~/modules/moderation/index.server";
import { apiRoute, methodNotAllowed, pageRequest } from "~/modules/shared/index.server";
import type { Route } from "./+types/me";

/** The viewer's account state and what moderators did to it (each appealable once), by cursor. */
export const loader = apiRoute<Route.LoaderArgs>(async ({ app, request }) => {
  const viewer = await requireApiViewer(app, request);
  return myModeration(app, viewer._id, viewer.isModerator, pageRequest(request, 20));
});

export const action = () => methodNotAllowed();
