import { viewerApiRoute } from "~/modules/auth/index.server";
import { UpdateProfileSchema } from "~/modules/profile/index";
import { getProfile, updateProfile } from "~/modules/profile/index.server";
import { parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/me";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId }) => getProfile(app, viewerId, viewerId));

/** PATCH /profile/me {bio, email}: Edit Profile. */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, request }) => updateProfile(app, viewerId, await parseJson(request, UpdateProfileSchema)),
  { methods: ["PATCH"] },
);
