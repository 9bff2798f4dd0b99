import { requirePageViewerId } from "~/modules/auth/index.server";
import { BrowseScrolls } from "~/modules/community/index";
import { publicScrolls } from "~/modules/community/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/browse-scrolls";

export const meta: Route.MetaFunction = () => [{ title: "Browse · Echo" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewerId = await requirePageViewerId(app, request);
  try {
    return { viewerId, scrolls: await publicScrolls(app, viewerId, "feed", 100) };
  } catch (error) {
    console.error("browse: public scrolls failed", error);
    return { viewerId, scrolls: [] };
  }
}

export default function Browse({ loaderData }: Route.ComponentProps) {
  return <BrowseScrolls type="feed" scrolls={loaderData.scrolls} viewerId={loaderData.viewerId} />;
}
