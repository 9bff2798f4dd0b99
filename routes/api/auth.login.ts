import { CredentialsSchema } from "~/modules/auth/index";
import { login } from "~/modules/auth/index.server";
import { apiHandler, appContext, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/auth.login";

export const loader = () => methodNotAllowed();

export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const { user, cookie } = await login(app, await parseJson(request, CredentialsSchema));
    return Response.json(user, { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
  });
}
