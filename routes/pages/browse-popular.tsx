import { useSearchParams } from "react-router";
import { requirePageViewerId } from "~/modules/auth/index.server";
import { BrowsePopular, PopularPageQuerySchema } from "~/modules/community/index";
import { popularEchos } from "~/modules/community/index.server";
import { appContext, pageQuery } from "~/modules/shared/index.server";
import type { Route } from "./+types/browse-popular";

export const meta: Route.MetaFunction = () => [{ title: "Popular · Echo" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  const { period, sort } = pageQuery(request, PopularPageQuerySchema);
  try {
    return { viewerId: viewer._id, period, sort, echos: await popularEchos(app, viewer._id, period, sort, 50) };
  } catch (error) {
    console.error("popular echos failed", error);
    return { viewerId: viewer._id, period, sort, echos: [] };
  }
}

export default function Popular({ loaderData }: Route.ComponentProps) {
  const [, setParams] = useSearchParams();
  return (
    <BrowsePopular
      {...loaderData}
      onChange={(period, sort) => setParams({ period, sort }, { preventScrollReset: true })}
    />
  );
}
