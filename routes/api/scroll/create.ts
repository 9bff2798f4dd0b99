import { viewerApiRoute } from "~/modules/auth/index.server";
import { CreateScrollSchema } from "~/modules/scroll/index";
import { createScroll } from "~/modules/scroll/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/create";

export const loader = () => methodNotAllowed();

export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, request }) => ({ scroll: await createScroll(app, viewerId, await parseJson(request, CreateScrollSchema)) }),
  { methods: ["POST"], status: 201 },
);
