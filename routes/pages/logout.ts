import { data, redirect } from "react-router";
import { logout } from "~/modules/auth/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/logout";

export const loader = () => redirect("/settings");

export async function action({ request, context }: Route.ActionArgs) {
  const cookie = await logout(context.get(appContext), request);
  return data({ ok: true }, { headers: { "Set-Cookie": cookie } });
}
