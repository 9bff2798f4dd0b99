import { viewerApiRoute } from "~/modules/auth/index.server";
import { MuteSchema } from "~/modules/profile/index";
import { setMute } from "~/modules/profile/index.server";
import { methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/mute";

export const loader = () => methodNotAllowed();

/** Muting (issue 32): POST mutes (an optional `duration`; no body is "until unmuted"), DELETE unmutes. */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, params, request }) => {
    if (request.method === "DELETE") return setMute(app, viewerId, params.userId, false);
    const empty = request.headers.get("content-length") === "0" || !request.body;
    const { duration } = empty ? { duration: "forever" as const } : await parseJson(request, MuteSchema);
    return setMute(app, viewerId, params.userId, duration);
  },
  { methods: ["POST", "DELETE"] },
);
