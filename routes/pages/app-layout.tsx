import { Outlet, useRouteLoaderData } from "react-router";
import { requirePageViewer, requirePageViewerId, viewerFollowsAnyone } from "~/modules/auth/index.server";
import { EchoExtensionsProvider } from "~/modules/echo/index";
import { NotificationBell } from "~/modules/notification/index";
import { SaveToScroll, ScrollPanel, ScrollPicker } from "~/modules/scroll/index";
import { scrollsAndSelection } from "~/modules/scroll/index.server";
import { appContext } from "~/modules/shared/index.server";
import { AppShell, MAIN_ID, RouteError } from "~/modules/shell/index";
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
  // all queue into the request's first D1 batch: one round trip; the session check reads the
  // viewer's row, so the bell's count and "follows anyone" cost no statement of their own
  const [viewer, { scrolls, nextCursor, selected, selectedId, followsAnyone }] = await Promise.all([
    requirePageViewer(app, request),
    scrollsAndSelection(app, viewerId, request, viewerFollowsAnyone(app, request)),
  ]);
  const unread = viewer.unreadNotifications;
  return { viewer: { _id: viewer._id, userName: viewer.userName }, scrolls, nextCursor, selected, selectedId, followsAnyone, unread };
}

type LayoutData = Route.ComponentProps["loaderData"];

/**
 * The last shell data this tab rendered. React Router drops a route's loader data when its loader
 * fails, and a lost connection fails the layout's loader with the page's (one .data request), so
 * the error boundary keeps the shell from here. Browser only: on the server a module variable
 * would outlive the request and could leak one user's shell into another's page.
 */
let lastShellData: LayoutData | undefined;

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  if (typeof document !== "undefined") lastShellData = loaderData;
  return <Shell data={loaderData}>
      <Outlet />
    </Shell>;
}

/**
 * A page that fails to load (server error, lost connection on navigation) shows its error inside
 * the shell, with Retry, so the user keeps the sidebar. The shell's data stays from the last good
 * load; only when the shell itself never loaded does the root boundary show a bare page.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<typeof loader>("pages/app-layout") ?? (typeof document !== "undefined" ? lastShellData : undefined);
  const message = <RouteError error={error} />;
  if (!data) {
    return (
      <main className="error-page" id={MAIN_ID} tabIndex={-1}>
        {message}
      </main>
    );
  }
  return <Shell data={data}>{message}</Shell>;
}

function Shell({ data: loaderData, children }: { data: LayoutData; children: React.ReactNode }) {
  const curations = loaderData.scrolls.filter((s) => s.type === "curation" && s.creator._id === loaderData.viewer._id);
  return (
    <AppShell
      user={loaderData.viewer}
      bell={<NotificationBell unread={loaderData.unread} />}
      sidebarScrolls={(
        <ScrollPicker
          scrolls={loaderData.scrolls}
          nextCursor={loaderData.nextCursor}
          selected={loaderData.selected}
          selectedId={loaderData.selectedId}
          followsAnyone={loaderData.followsAnyone}
        />
      )}
      rightPanel={<ScrollPanel scrolls={loaderData.scrolls} more={loaderData.nextCursor !== null} />}
    >
      <EchoExtensionsProvider
        value={{ saveToScroll: (echo, close) => <SaveToScroll echo={echo} curations={curations} onClose={close} /> }}
      >
        {children}
      </EchoExtensionsProvider>
    </AppShell>
  );
}
