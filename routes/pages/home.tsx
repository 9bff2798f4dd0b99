import { requirePageViewerId } from "~/modules/auth/index.server";
import { listEchos, listFollowing } from "~/modules/echo/index.server";
import { FOLLOWING, HomeFeed, homeLiveQuery } from "~/modules/scroll/index";
import { DOCUMENT_CANDIDATE_ROWS, scrollEchos, scrollsAndSelection } from "~/modules/scroll/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [{ title: "Echo" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  const { scrolls, selected, selectedId } = await scrollsAndSelection(app, viewer._id, request);
  const first = { page: 1, limit: 20 };
  const page = selected
    ? await scrollEchos(app, viewer._id, selected, first, Date.now(), DOCUMENT_CANDIDATE_ROWS)
    : selectedId === FOLLOWING
      ? await listFollowing(app, viewer._id, first)
      : await listEchos(app, viewer._id, {}, first);
  return { viewerId: viewer._id, scrolls, selected, selectedId, page, live: homeLiveQuery(selected, selectedId === FOLLOWING) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomeFeed {...loaderData} />;
}
