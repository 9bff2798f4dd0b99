import { requirePageViewerId } from "~/modules/auth/index.server";
import { CommunityScreen } from "~/modules/community/index";
import { popularEchos, publicScrolls, trendingTags } from "~/modules/community/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/community";

export const meta: Route.MetaFunction = () => [{ title: "Discover Community · Echo" }];

/** A failing section is logged and shows its empty text (spec §8); the page still renders. */
async function orNull<T>(what: string, load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    console.error(`community: ${what} failed`, error);
    return null;
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  const [feeds, curations, tags, popular] = await Promise.all([
    orNull("feed scrolls", () => publicScrolls(app, viewer._id, "feed", 4)),
    orNull("curations", () => publicScrolls(app, viewer._id, "curation", 4)),
    orNull("tags", () => trendingTags(app, 8)),
    orNull("popular echos", () => popularEchos(app, viewer._id, "today", "likes", 3)),
  ]);
  return { viewerId: viewer._id, data: { feeds, curations, tags, popular } };
}

export default function Community({ loaderData }: Route.ComponentProps) {
  return <CommunityScreen {...loaderData} />;
}
