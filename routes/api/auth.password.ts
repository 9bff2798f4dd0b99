import { ChangePasswordSchema } from "~/modules/auth/index";
import { changePassword, requireApiClaims } from "~/modules/auth/index.server";
import { apiRoute, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/auth.password";

export const loader = () => methodNotAllowed();

/** POST /auth/password {currentPassword, newPassword}: other sessions are signed out. */
export const action = apiRoute<Route.ActionArgs>(
  async ({ app, request }) => {
    // the session check rides in the password check's batch (two round trips in all)
    const claims = await requireApiClaims(app, request);
    await changePassword(app, claims, await parseJson(request, ChangePasswordSchema));
    return { ok: true };
  },
  { methods: ["POST"] },
);
