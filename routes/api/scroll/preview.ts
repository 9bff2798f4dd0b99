import { viewerApiRoute } from "~/modules/auth/index.server";
import { PreviewSchema } from "~/modules/scroll/index";
import { previewFeedConfig } from "~/modules/scroll/index.server";
import { methodNotAllowed, pageRequest, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/preview";

export const loader = () => methodNotAllowed();

/** The live preview of a rule being written: reads only (POST carries the rule as create does). */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, request }) => previewFeedConfig(app, viewerId, (await parseJson(request, PreviewSchema)).feedConfig, pageRequest(request)),
  { methods: ["POST"] },
);
