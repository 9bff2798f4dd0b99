import { requirePageViewer } from "~/modules/auth/index.server";
import { ModerationScreen, NotAModerator } from "~/modules/moderation/index";
import { auditLog, queue } from "~/modules/moderation/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/moderation";

export const meta: Route.MetaFunction = () => [{ title: "Moderation · Echo" }];

/** Moderators: the first page of the queue and of the audit log (decision 029); others: a notice. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = await requirePageViewer(app, request);
  if (!viewer.isModerator) return { moderator: false as const };
  const [q, log] = await Promise.all([queue(app, { limit: 20 }), auditLog(app, { limit: 20 })]);
  return { moderator: true as const, queue: q, log };
}

export default function Moderation({ loaderData }: Route.ComponentProps) {
  return loaderData.moderator ? <ModerationScreen queue={loaderData.queue} log={loaderData.log} /> : <NotAModerator />;
}
