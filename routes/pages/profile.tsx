import { data } from "react-router";
import { requirePageViewerId } from "~/modules/auth/index.server";
import { webFeedAlternates } from "~/modules/echo/index";
import { listEchos } from "~/modules/echo/index.server";
import { ProfileScreen, UserNotFound } from "~/modules/profile/index";
import { getProfile } from "~/modules/profile/index.server";
import { listUserScrolls } from "~/modules/scroll/index.server";
import { HttpError } from "~/modules/shared/index";
import { appContext } from "~/modules/shared/index.server";
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
    const [profile, echos, scrolls] = await Promise.all([
      getProfile(app, viewer._id, userId),
      listEchos(app, viewer._id, { user: userId }, first),
      listUserScrolls(app, viewer._id, userId, "created", first),
    ]);
    return { viewerId: viewer._id, profile, echos, scrolls };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return data({ viewerId: viewer._id, profile: null, echos: null, scrolls: null }, { status: 404 });
    throw error;
  }
}

export default function ProfileRoute({ loaderData }: Route.ComponentProps) {
  const { profile, echos, scrolls, viewerId } = loaderData;
  if (!profile || !echos || !scrolls) {
    return <UserNotFound />;
  }
  return <ProfileScreen key={profile._id} profile={profile} echos={echos} scrolls={scrolls} viewerId={viewerId} />;
}
