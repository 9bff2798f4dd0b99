import { viewerApiRoute } from "~/modules/auth/index.server";
import { AddEchoSchema } from "~/modules/scroll/index";
import { addEcho } from "~/modules/scroll/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/add-echo";

export const loader = () => methodNotAllowed();

export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => {
    const { echoId } = await parseJson(request, AddEchoSchema);
    return addEcho(app, viewerId, params.id, echoId);
  },
  { methods: ["POST"] },
);
