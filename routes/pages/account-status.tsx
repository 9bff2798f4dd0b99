import { requirePageViewer } from "~/modules/auth/index.server";
import { AccountStatusScreen } from "~/modules/moderation/index";
import { myModeration } from "~/modules/moderation/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/account-status";

export const meta: Route.MetaFunction = () => [{ title: "Account status · Echo" }];

/** The viewer's standing and what moderators did to their account, each appealable once (decision 029). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = await requirePageViewer(app, request);
  return { status: await myModeration(app, viewer._id, viewer.isModerator, { limit: 20 }) };
}

export default function AccountStatus({ loaderData }: Route.ComponentProps) {
  return <AccountStatusScreen status={loaderData.status} />;
}
