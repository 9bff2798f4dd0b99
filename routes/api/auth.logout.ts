import { logout } from "~/modules/auth/index.server";
import { apiRoute, methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/auth.logout";

export const loader = () => methodNotAllowed();

export const action = apiRoute<Route.ActionArgs>(
  async ({ app, request }) => {
    const cookie = await logout(app, request);
    return Response.json({ ok: true }, { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
  },
  { methods: ["POST"] },
);
