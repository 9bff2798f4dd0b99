import { viewerApiRoute } from "~/modules/auth/index.server";
import { PostEchoSchema } from "~/modules/echo/index";
import { postEcho } from "~/modules/echo/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/post";

export const loader = () => methodNotAllowed();

export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, request }) => ({ echo: await postEcho(app, viewerId, await parseJson(request, PostEchoSchema)) }),
  { methods: ["POST"], status: 201 },
);
