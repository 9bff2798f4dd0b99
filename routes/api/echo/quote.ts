import { viewerApiRoute } from "~/modules/auth/index.server";
import { PostEchoSchema } from "~/modules/echo/index";
import { postEcho } from "~/modules/echo/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/quote";

export const loader = () => methodNotAllowed();

/** A quote is a post that embeds another echo (decision 027): the same body, checks and limit. */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => ({ echo: await postEcho(app, viewerId, await parseJson(request, PostEchoSchema), undefined, params.id) }),
  { methods: ["POST"], status: 201 },
);
