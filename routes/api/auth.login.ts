import { LoginSchema } from "~/modules/auth/index";
import { login } from "~/modules/auth/index.server";
import { apiRoute, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/auth.login";

export const loader = () => methodNotAllowed();

export const action = apiRoute<Route.ActionArgs>(
  async ({ app, request }) => {
    const { user, cookie } = await login(app, await parseJson(request, LoginSchema));
    return Response.json(user, { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
  },
  { methods: ["POST"] },
);
