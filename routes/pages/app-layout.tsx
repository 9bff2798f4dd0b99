import { Outlet } from "react-router";
import { requirePageViewer } from "~/modules/auth/index.server";
import { appContext } from "~/modules/shared/index.server";
import { AppShell } from "~/modules/shell/index";
import type { Route } from "./+types/app-layout";

/** Every page but /login and /signup: a guest goes to /login (spec §2). */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }) => {
    await requirePageViewer(context.get(appContext), request);
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requirePageViewer(context.get(appContext), request);
  return { viewer: { _id: viewer._id, userName: viewer.userName } };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell user={loaderData.viewer}>
      <Outlet />
    </AppShell>
  );
}
