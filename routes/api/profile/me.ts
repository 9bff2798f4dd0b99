import { requireApiViewerId } from "~/modules/auth/index.server";
import { UpdateProfileSchema } from "~/modules/profile/index";
import { getProfile, updateProfile } from "~/modules/profile/index.server";
import { apiHandler, appContext, methodNotAllowed, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/me";

export function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return getProfile(app, viewer._id, viewer._id);
  });
}

/** PATCH /profile/me {bio, email}: Edit Profile. */
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed();
  const app = context.get(appContext);
  return apiHandler(async () => {
    const viewer = { _id: await requireApiViewerId(app, request) };
    return updateProfile(app, viewer._id, await parseJson(request, UpdateProfileSchema));
  });
}
