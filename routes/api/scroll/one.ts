import { viewerApiRoute } from "~/modules/auth/index.server";
import { UpdateScrollSchema } from "~/modules/scroll/index";
import { deleteScroll, getScroll, updateScroll } from "~/modules/scroll/index.server";
import { parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/one";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, params }) => ({ scroll: await getScroll(app, viewerId, params.id) }));

/** DELETE removes the scroll (creator only); PATCH edits it (the edit screen). */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => {
    if (request.method === "PATCH") {
      return { scroll: await updateScroll(app, viewerId, params.id, await parseJson(request, UpdateScrollSchema)) };
    }
    await deleteScroll(app, viewerId, params.id);
    return { deleted: true, _id: params.id };
  },
  { methods: ["DELETE", "PATCH"] },
);
