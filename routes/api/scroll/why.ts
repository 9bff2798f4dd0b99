import { viewerApiRoute } from "~/modules/auth/index.server";
import { whyHere } from "~/modules/scroll/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/why";

/** Why an echo is (or isn't) in a scroll: the rules it meets (docs/decisions/012-preview-why-fork.md). */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, params }) => whyHere(app, viewerId, params.id, params.echoId));

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
