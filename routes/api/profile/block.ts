import { viewerApiRoute } from "~/modules/auth/index.server";
import { getRelation, setBlock } from "~/modules/profile/index.server";
import type { Route } from "./+types/block";

/** Where the viewer stands with the user (blocked, muted). */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId, params }) => getRelation(app, viewerId, params.userId));

/** Blocking (issue 32): POST blocks, DELETE unblocks; answers the relation. */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => setBlock(app, viewerId, params.userId, request.method === "POST"),
  { methods: ["POST", "DELETE"] },
);
