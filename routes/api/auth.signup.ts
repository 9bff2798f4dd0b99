import { CredentialsSchema } from "~/modules/auth/index";
import { signup } from "~/modules/auth/index.server";
import { apiRoute, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/auth.signup";

export const loader = () => methodNotAllowed();

export const action = apiRoute<Route.ActionArgs>(
  async ({ app, request }) => {
    const { user, cookie } = await signup(app, await parseJson(request, CredentialsSchema));
    return Response.json(user, { status: 201, headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
  },
  { methods: ["POST"] },
);
