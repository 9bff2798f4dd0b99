import { data } from "react-router";
import { AuthForm, CredentialsSchema } from "~/modules/auth/index";
import { signup } from "~/modules/auth/index.server";
import { appContext, pageAction, parseForm } from "~/modules/shared/index.server";
import type { Route } from "./+types/signup";

export const meta: Route.MetaFunction = () => [{ title: "Sign up · Echo" }];

export function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  return pageAction(async () => {
    const { user, cookie } = await signup(app, await parseForm(request, CredentialsSchema));
    return data({ user }, { status: 201, headers: { "Set-Cookie": cookie } });
  });
}

export default function Signup() {
  return <AuthForm mode="signup" />;
}
