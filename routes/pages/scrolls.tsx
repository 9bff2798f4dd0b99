import { requirePageViewerId } from "~/modules/auth/index.server";
import { ScrollsOverview } from "~/modules/scroll/index";
import { listAllMyScrolls } from "~/modules/scroll/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/scrolls";

export const meta: Route.MetaFunction = () => [{ title: "Scrolls · Echo" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  const scrolls = await listAllMyScrolls(app, viewer._id);
  return { scrolls, viewerId: viewer._id };
}

export default function Scrolls({ loaderData }: Route.ComponentProps) {
  return <ScrollsOverview {...loaderData} />;
}
