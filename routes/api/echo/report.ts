import { viewerApiRoute } from "~/modules/auth/index.server";
import { ReportSchema } from "~/modules/echo/index";
import { reportEcho } from "~/modules/echo/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/report";

export const loader = () => methodNotAllowed();

export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => reportEcho(app, viewerId, params.id, (await parseJson(request, ReportSchema)).reason),
  { methods: ["POST"], status: 201 },
);
