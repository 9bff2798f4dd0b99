import { viewerApiRoute } from "~/modules/auth/index.server";
import { PostEchoSchema } from "~/modules/echo/index";
import { editEcho } from "~/modules/echo/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/edit";

export const loader = () => methodNotAllowed();

/** The author's new version of the echo: text, tags and warning, as a post takes them (decision 025). */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, request, params }) => ({ echo: await editEcho(app, viewerId, params.id, await parseJson(request, PostEchoSchema)) }),
  { methods: ["PATCH"] },
);
