import { Outlet } from "react-router";
import { requirePageViewer } from "~/modules/auth/index.server";
import { EchoExtensionsProvider } from "~/modules/echo/index";
import { SaveToScroll, ScrollPanel, ScrollPicker } from "~/modules/scroll/index";
import { scrollsAndSelection } from "~/modules/scroll/index.server";
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
  const app = context.get(appContext);
  const viewer = await requirePageViewer(app, request);
  const { scrolls, selectedId } = await scrollsAndSelection(app, viewer._id, request);
  return { viewer: { _id: viewer._id, userName: viewer.userName }, scrolls, selectedId };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const curations = loaderData.scrolls.filter((s) => s.type === "curation" && s.creator._id === loaderData.viewer._id);
  return (
    <AppShell
      user={loaderData.viewer}
      sidebarScrolls={<ScrollPicker scrolls={loaderData.scrolls} selectedId={loaderData.selectedId} />}
      rightPanel={<ScrollPanel scrolls={loaderData.scrolls} />}
    >
      <EchoExtensionsProvider
        value={{ saveToScroll: (echo, close) => <SaveToScroll echo={echo} curations={curations} onClose={close} /> }}
      >
        <Outlet />
      </EchoExtensionsProvider>
    </AppShell>
  );
}
