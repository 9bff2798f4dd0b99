import { data } from "react-router";
import { requirePageViewerId } from "~/modules/auth/index.server";
import { webFeedAlternates } from "~/modules/echo/index";
import { listEchos } from "~/modules/echo/index.server";
import { ProfileScreen, UpdateProfileSchema, UserNotFound } from "~/modules/profile/index";
import { getProfile, getRelation, updateProfile } from "~/modules/profile/index.server";
import { listUserScrolls } from "~/modules/scroll/index.server";
import { badRequest, HttpError } from "~/modules/shared/index";
import { appContext, pageAction, parseForm } from "~/modules/shared/index.server";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.profile ? `@${loaderData.profile.userName} · Echo` : "Profile · Echo" },
  // the feeds are addressed by user name (/user/{userName}/feed.*), the page by id
  ...(loaderData?.profile ? webFeedAlternates(`/user/${encodeURIComponent(loaderData.profile.userName)}`, `@${loaderData.profile.userName}`) : []),
];

/** /profile (own) and /user/{id} (anyone's, own included). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  const userId = params.id ?? viewer._id;
  const first = { page: 1, limit: 10 };
  try {
    const [profile, echos, scrolls, relation] = await Promise.all([
      getProfile(app, viewer._id, userId),
      listEchos(app, viewer._id, { user: userId }, first),
      listUserScrolls(app, viewer._id, userId, "created", first),
      // block and mute (issue 32): another's profile only, in the same batch
      userId === viewer._id ? null : getRelation(app, viewer._id, userId),
    ]);
    return { viewerId: viewer._id, profile, echos, scrolls, relation };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return data({ viewerId: viewer._id, profile: null, echos: null, scrolls: null, relation: null }, { status: 404 });
    throw error;
  }
}

/** Edit Profile (intent "profile", the owner's bio and e-mail): answers the saved profile or `{ error }`. */
export function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  return pageAction(async () => {
    const viewerId = await requirePageViewerId(app, request);
    const form = await request.clone().formData().catch(() => null);
    if (form?.get("intent") !== "profile") throw badRequest("Unknown profile action");
    return { profile: await updateProfile(app, viewerId, await parseForm(request, UpdateProfileSchema)) };
  });
}

export default function ProfileRoute({ loaderData }: Route.ComponentProps) {
  const { profile, echos, scrolls, viewerId, relation } = loaderData;
  if (!profile || !echos || !scrolls) {
    return <UserNotFound />;
  }
  return <ProfileScreen
      // a block or mute changes what the profile shows: its lists start again from the loader
      key={`${profile._id}:${relation?.blocked ?? ""}:${relation?.muted ?? ""}`} profile={profile} echos={echos} scrolls={scrolls} viewerId={viewerId} relation={relation} />;
}
