import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";
import {
  HEAD_SCRIPT,
  InlineStyles,
  MAIN_ID,
  PageChrome,
  RouteError,
  SpeculationRules,
  Splash,
  useDocumentNavigationAcrossVerticals,
  useNonce,
  usePrerenderActivation,
} from "~/modules/shell/index";
import { HttpError, Toaster } from "~/modules/shared/index";
import { confirmSession, staleSessionCookie } from "~/modules/auth/index.server";
import { appContext, toErrorResponse, type AppContext } from "~/modules/shared/index.server";
import { reloadAcrossVerticals } from "~/modules/verticals/index";
import type { Route } from "./+types/root";

export const meta: Route.MetaFunction = () => [{ title: "Echo" }];

/**
 * The session check (auth's, modules/auth/session-check.server.ts) rides in a read's first D1
 * batch (docs/decisions/007) and answers nothing itself: after the route ran, confirm the session
 * and answer 401 / a redirect to /login instead when it does not hold — whatever the route read,
 * or if it read nothing from D1 (from KV, say).
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    const app = context.get(appContext);
    const response = clearStaleCookie(await confirmedResponse(app, await next()), await staleSessionCookie(app, request));
    // a redirect to another vertical's page (a guest sent to /login, say) reloads the document
    return reloadAcrossVerticals(response, __ECHO_VERTICAL__, new URL(request.url).origin);
  },
];

async function confirmedResponse(app: AppContext, response: Response): Promise<Response> {
  const check = await confirmSession(app);
  if (!check) return response;
  if (check.failure instanceof Response) return check.failure;
  // the route already answered with an error page or body: keep it
  if (!(check.failure instanceof HttpError) && response.status >= 500) return response;
  return toErrorResponse(check.failure);
}

/**
 * A session cookie that names no live session is cleared on whatever answers (issue 12), unless
 * the answer sets a new one (a login sent with the stale cookie still in the browser).
 */
function clearStaleCookie(response: Response, clearing: string | null): Response {
  if (!clearing) return response;
  const name = clearing.slice(0, clearing.indexOf("="));
  if (response.headers.getSetCookie().some((c) => c.startsWith(`${name}=`))) return response;
  const headers = new Headers(response.headers);
  headers.append("Set-Cookie", clearing);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en" data-theme="light" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {/* No icon yet: without this the browser asks for /favicon.ico, a signed-in 404 page. */}
        <link rel="icon" href="data:," />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: HEAD_SCRIPT }} />
        {/* app.css, inlined by the server (modules/shell/ui/inline-styles.tsx) */}
        <InlineStyles />
        <Meta />
        <Links />
        <SpeculationRules />
      </head>
      <body>
        <Splash />
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useDocumentNavigationAcrossVerticals();
  // a page prerendered long before it was shown, whose data has changed since, starts afresh
  const fresh = usePrerenderActivation();
  return (
    <>
      <PageChrome />
      <Outlet key={fresh} />
      <Toaster position="top-center" containerClassName="toasts" />
    </>
  );
}

/**
 * Errors outside the app shell (the guest pages, a failed shell): never a stack, a sentence, a
 * Retry and a way home. Errors under the shell are caught by its own boundary (app-layout).
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <>
      <PageChrome />
      <main className="error-page" id={MAIN_ID} tabIndex={-1}>
        <RouteError error={error} />
      </main>
    </>
  );
}
