import { viewerApiRoute } from "~/modules/auth/index.server";
import { PostEchoSchema } from "~/modules/echo/index";
import { postEcho } from "~/modules/echo/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/reply";

export const loader = () => methodNotAllowed();

/** A reply is a post with a parent (decision 024): the same body, checks and limit. */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => ({ echo: await postEcho(app, viewerId, await parseJson(request, PostEchoSchema), params.id) }),
  { methods: ["POST"], status: 201 },
);
