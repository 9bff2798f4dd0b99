import { data } from "react-router";
import { requirePageViewerId } from "~/modules/auth/index.server";
import { webFeedAlternates } from "~/modules/echo/index";
import { ScrollDetail } from "~/modules/scroll/index";
import { DOCUMENT_CANDIDATE_ROWS, scrollWithEchos } from "~/modules/scroll/index.server";
import { HttpError, isolate } from "~/modules/shared/index";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/scroll";

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const scroll = loaderData?.view.state === "ok" ? loaderData.view.scroll : null;
  return [
    { title: scroll ? `${isolate(scroll.name)} · Echo` : "Scroll · Echo" },
    // a private scroll has no web feed (it answers 404)
    ...(scroll && !scroll.isPrivate ? webFeedAlternates(`/scroll/${scroll._id}`, scroll.name) : []),
  ];
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  try {
    const { scroll, page } = await scrollWithEchos(app, viewer._id, params.id, { page: 1, limit: 20 }, Date.now(), DOCUMENT_CANDIDATE_ROWS);
    return { viewerId: viewer._id, view: { state: "ok" as const, scroll, page } };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) {
      return data({ viewerId: viewer._id, view: { state: "missing" as const } }, { status: 404 });
    }
    if (error instanceof HttpError && error.status === 403) {
      return data({ viewerId: viewer._id, view: { state: "private" as const } }, { status: 403 });
    }
    throw error;
  }
}

export default function ScrollRoute({ loaderData }: Route.ComponentProps) {
  return <ScrollDetail view={loaderData.view} viewerId={loaderData.viewerId} />;
}
