import { CredentialsSchema } from "~/modules/auth/index";
import { signup } from "~/modules/auth/index.server";
import { apiHandler, appContext, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/auth.signup";

export const loader = () => methodNotAllowed();

export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const { user, cookie } = await signup(app, await parseJson(request, CredentialsSchema));
    return Response.json(user, { status: 201, headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
  });
}
