import { requirePageViewerId } from "~/modules/auth/index.server";
import { NotificationsScreen } from "~/modules/notification/index";
import { listNotifications } from "~/modules/notification/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/notifications";

export const meta: Route.MetaFunction = () => [{ title: "Notifications · Echo" }];

/** The first page; "Load more" continues through GET /api/notifications?cursor=. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewerId = await requirePageViewerId(app, request);
  return { page: await listNotifications(app, viewerId) };
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  return <NotificationsScreen page={loaderData.page} />;
}
