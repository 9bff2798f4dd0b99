import { Outlet, redirect, type ShouldRevalidateFunction } from "react-router";
import { getViewer } from "~/modules/auth/index.server";
import { RETURN_PARAM, safeReturnPath } from "~/modules/shared/index";
import { appContext } from "~/modules/shared/index.server";
import { MAIN_ID } from "~/modules/shell/index";
import type { Route } from "./+types/guest-layout";

/** /login and /signup: a signed-in user goes to / (spec §2), or to the page `?next=` names (issue 29). */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }) => {
    if (!(await getViewer(context.get(appContext), request))) return;
    throw redirect(safeReturnPath(new URL(request.url).searchParams.get(RETURN_PARAM)) ?? "/");
  },
];

// Server middleware only runs on a client-side navigation when some matched route has a loader
// to fetch; this empty one makes in-app links to /login and /signup ask the server too.
export const loader = () => null;

/**
 * After a sign-up or log-in (a submission on this page) the form itself toasts and goes on to /.
 * Re-running the check above first would redirect to / at once: another vertical, so a new
 * document, before the form could say "Logged in successfully" (docs/decisions/011).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod && formMethod.toUpperCase() !== "GET" ? false : defaultShouldRevalidate;

export default function GuestLayout() {
  return (
    <main className="auth-page" id={MAIN_ID} tabIndex={-1}>
      <div className="auth-card">
        <div className="auth-logo">Echo</div>
        {/* the first screen a new visitor sees: say what Echo is before asking for an account */}
        <p className="auth-tagline" data-testid="echo-description">
          Echo is a place for short notes. Post echos with tags, like the ones you enjoy, and gather them into scrolls:
          hand-picked curations or feeds that follow your own rules.
        </p>
        <Outlet />
      </div>
    </main>
  );
}
