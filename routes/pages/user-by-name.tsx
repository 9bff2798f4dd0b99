import { data, redirect } from "react-router";
import { requirePageViewerId } from "~/modules/auth/index.server";
import { UserNotFound } from "~/modules/profile/index";
import { findUserIdByName } from "~/modules/profile/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/user-by-name";

export const meta: Route.MetaFunction = () => [{ title: "User not found · Echo" }];

/**
 * An @mention's link (issue 18, docs/product-notes.md): echo text links every well-formed @name
 * here, and this one indexed read sends it on to the profile, or answers 404 for a name no one has.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  await requirePageViewerId(app, request);
  const userId = await findUserIdByName(app, params.userName);
  if (userId) throw redirect(`/user/${userId}`);
  return data(null, { status: 404 });
}

export default function UserByNameRoute() {
  return <UserNotFound />;
}
