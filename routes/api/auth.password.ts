import { ChangePasswordSchema } from "~/modules/auth/index";
import { changePassword, requireApiViewer } from "~/modules/auth/index.server";
import { apiRoute, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/auth.password";

export const loader = () => methodNotAllowed();

/** POST /auth/password {currentPassword, newPassword}: other sessions are signed out. */
export const action = apiRoute<Route.ActionArgs>(
  async ({ app, request }) => {
    const viewer = await requireApiViewer(app, request);
    await changePassword(app, viewer._id, viewer.sessionId, await parseJson(request, ChangePasswordSchema));
    return { ok: true };
  },
  { methods: ["POST"] },
);
