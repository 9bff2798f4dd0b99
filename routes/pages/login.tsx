import { data } from "react-router";
import { AuthForm, LoginSchema } from "~/modules/auth/index";
import { login } from "~/modules/auth/index.server";
import { appContext, pageAction, parseForm } from "~/modules/shared/index.server";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => [{ title: "Log in · Echo" }];

export function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  return pageAction(async () => {
    const { user, cookie } = await login(app, await parseForm(request, LoginSchema));
    return data({ user }, { headers: { "Set-Cookie": cookie } });
  });
}

export default function Login() {
  return <AuthForm mode="login" />;
}
