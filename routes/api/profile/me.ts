import { DeleteAccountSchema } from "~/modules/auth/index";
import { clearedSessionCookie, deleteAccount, viewerApiRoute } from "~/modules/auth/index.server";
import { UpdateProfileSchema } from "~/modules/profile/index";
import { getProfile, updateProfile } from "~/modules/profile/index.server";
import { parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/me";

export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId }) => getProfile(app, viewerId, viewerId));

/** PATCH /profile/me {bio, email}: Edit Profile. DELETE /profile/me {password}: delete the account. */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, request }) => {
    if (request.method === "PATCH") return updateProfile(app, viewerId, await parseJson(request, UpdateProfileSchema));
    await deleteAccount(app, viewerId, (await parseJson(request, DeleteAccountSchema)).password);
    return Response.json({ ok: true }, { headers: { "Set-Cookie": await clearedSessionCookie(app), "Cache-Control": "no-store" } });
  },
  { methods: ["PATCH", "DELETE"] },
);
