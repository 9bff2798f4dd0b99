import { requirePageViewerId } from "~/modules/auth/index.server";
import { normalizeTag, TagPage, TagPageQuerySchema, webFeedAlternates } from "~/modules/echo/index";
import { listTag } from "~/modules/echo/index.server";
import { appContext, pageQuery } from "~/modules/shared/index.server";
import type { Route } from "./+types/tag";

export const meta: Route.MetaFunction = ({ params, loaderData }) => [
  { title: `#${params.tagName} · Echo` },
  ...(loaderData ? webFeedAlternates(`/tag/${encodeURIComponent(loaderData.tag)}`, `#${loaderData.tag}`) : []),
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  // unknown values in the address bar fall back to the defaults rather than erroring a page
  const { orderBy, timeframe } = pageQuery(request, TagPageQuerySchema);
  const tag = normalizeTag(params.tagName);
  const page = await listTag(app, viewer._id, tag, { orderBy, timeframe }, { page: 1, limit: 20 });
  return { viewerId: viewer._id, tag, orderBy, timeframe, page };
}

export default function TagRoute({ loaderData }: Route.ComponentProps) {
  return <TagPage {...loaderData} />;
}
