import { viewerApiRoute } from "~/modules/auth/index.server";
import { forkScroll } from "~/modules/scroll/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/fork";

export const loader = () => methodNotAllowed();

/** Fork a feed: the viewer's own copy of its rules, pointing back at it (201 { scroll }). */
export const action = viewerApiRoute<Route.ActionArgs>(async ({ app, viewerId, params }) => ({ scroll: await forkScroll(app, viewerId, params.id) }), {
  methods: ["POST"],
  status: 201,
});
