import { isRouteErrorResponse, useNavigation, useRevalidator } from "react-router";

/**
 * What an error boundary shows: a heading, a sentence in the product's words (never a stack),
 * a Retry that asks the server again for the same page, and a way home. Rendered inside the app
 * shell when the shell's data is there, so a failed navigation keeps the sidebar.
 */
export function RouteError({ error }: { error: unknown }) {
  const revalidator = useRevalidator();
  const navigating = useNavigation().state !== "idle";
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const notFound = status === 404;
  const busy = revalidator.state !== "idle" || navigating;
  return (
    <div className="route-error">
      <h1>{notFound ? "Page not found" : "Something went wrong"}</h1>
      <p>
        {notFound
          ? "The page you are looking for doesn't exist."
          : "This page couldn't be loaded. Check your connection and try again."}
      </p>
      <div className="empty-actions">
        {!notFound && (
          // aria-disabled, not disabled: a disabled button would drop the keyboard focus to <body>
          <button
            type="button"
            className="btn btn-primary"
            aria-disabled={busy}
            onClick={() => !busy && revalidator.revalidate()}
          >
            {busy ? "Retrying…" : "Retry"}
          </button>
        )}
        <a className="btn" href="/">
          Go home
        </a>
      </div>
    </div>
  );
}
