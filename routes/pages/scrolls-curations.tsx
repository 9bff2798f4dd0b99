import { requirePageViewerId } from "~/modules/auth/index.server";
import { ScrollsByType } from "~/modules/scroll/index";
import { listMyScrollsOfType, myScrollsQuery, SCROLLS_PAGE } from "~/modules/scroll/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/scrolls-curations";

export const meta: Route.MetaFunction = () => [{ title: "My Curations · Echo" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  // a page of them (issue 28: every scroll was read); `?cursor` pages on, a bad one is a 400
  const { cursor } = myScrollsQuery(request);
  const page = await listMyScrollsOfType(app, viewer._id, "curation", { cursor, limit: SCROLLS_PAGE });
  return { scrolls: page.scrolls, nextCursor: page.nextCursor, isFirstPage: cursor === null, viewerId: viewer._id };
}

export default function ScrollsOfType({ loaderData }: Route.ComponentProps) {
  return <ScrollsByType type="curation" {...loaderData} />;
}
