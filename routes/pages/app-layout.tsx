import { Outlet } from "react-router";
import { requirePageViewer, requirePageViewerId } from "~/modules/auth/index.server";
import { EchoExtensionsProvider } from "~/modules/echo/index";
import { SaveToScroll, ScrollPanel, ScrollPicker } from "~/modules/scroll/index";
import { scrollsAndSelection } from "~/modules/scroll/index.server";
import { appContext } from "~/modules/shared/index.server";
import { AppShell } from "~/modules/shell/index";
import type { Route } from "./+types/app-layout";

/** Every page but /login and /signup: a guest goes to /login (spec §2). */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }) => {
    // verifies the token now; the session row is checked in the loaders' first D1 batch
    await requirePageViewerId(context.get(appContext), request);
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewerId = await requirePageViewerId(app, request);
  // both queue into the request's first D1 batch: one round trip
  const [viewer, { scrolls, selectedId }] = await Promise.all([
    requirePageViewer(app, request),
    scrollsAndSelection(app, viewerId, request),
  ]);
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
