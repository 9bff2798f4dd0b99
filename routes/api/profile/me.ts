import { DeleteAccountSchema } from "~/modules/auth/index";
import { clearedSessionCookie, deleteAccount, requireApiClaims, requireApiViewerId, viewerApiRoute } from "~/modules/auth/index.server";
import { UpdateProfileSchema } from "~/modules/profile/index";
import { getProfile, updateProfile } from "~/modules/profile/index.server";
import { apiRoute, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/me";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId }) => getProfile(app, viewerId, viewerId));

/** PATCH /profile/me {bio, email}: Edit Profile. DELETE /profile/me {password}: delete the account. */
export const action = apiRoute<Route.ActionArgs>(
  async ({ app, request }) => {
    if (request.method === "PATCH") return updateProfile(app, await requireApiViewerId(app, request), await parseJson(request, UpdateProfileSchema));
    // the session check rides in the password check's batch (two round trips in all)
    await deleteAccount(app, await requireApiClaims(app, request), (await parseJson(request, DeleteAccountSchema)).password);
    return Response.json({ ok: true }, { headers: { "Set-Cookie": await clearedSessionCookie(app), "Cache-Control": "no-store" } });
  },
  { methods: ["PATCH", "DELETE"] },
);
