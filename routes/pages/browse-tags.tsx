import { requirePageViewerId } from "~/modules/auth/index.server";
import { BrowseTags } from "~/modules/community/index";
import { trendingTags } from "~/modules/community/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/browse-tags";

export const meta: Route.MetaFunction = () => [{ title: "Tags · Echo" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  await requirePageViewerId(app, request);
  try {
    return { tags: await trendingTags(app, 100) };
  } catch (error) {
    console.error("browse: tags failed", error);
    return { tags: [] };
  }
}

export default function Tags({ loaderData }: Route.ComponentProps) {
  return <BrowseTags tags={loaderData.tags} />;
}
