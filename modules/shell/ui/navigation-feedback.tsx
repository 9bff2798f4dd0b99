import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigation } from "react-router";

/** Every page's <main> carries this id: the skip link's target and the focus fallback. */
export const MAIN_ID = "main";

/** The first tab stop of every page: jumps past the top bar and sidebar (WCAG 2.4.1). */
export function SkipLink() {
  return (
    <a className="skip-link" href={`#${MAIN_ID}`}>
      Skip to main content
    </a>
  );
}

/**
 * After a client-side navigation to another page, focus moves to its main heading (or to <main>
 * when it has none), so a screen reader announces the new page and the next Tab starts there,
 * not back on a sidebar link. The first load keeps the browser's own focus; query-only changes
 * (filters, search terms) keep focus where the user is typing or choosing.
 */
export function FocusOnNavigate() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById(MAIN_ID);
    const target = main?.querySelector<HTMLElement>("h1") ?? main;
    if (!target) return;
    // focusable by script only; preventScroll keeps the scroll restoration's position
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }, [pathname]);
  return null;
}

const PROGRESS_DELAY_MS = 150;

/**
 * A slim bar at the top while a navigation waits on the server for more than 150 ms (fast ones
 * would only flicker), with a polite status for screen readers.
 */
export function NavigationProgress() {
  const busy = useNavigation().state !== "idle";
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!busy) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), PROGRESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [busy]);
  return (
    <div role="status" className="nav-progress-status">
      {shown && (
        <>
          <div className="nav-progress" aria-hidden="true" />
          <span className="visually-hidden">Loading…</span>
        </>
      )}
    </div>
  );
}

/** What every page (and the root error page) starts with: skip link, progress bar, focus moves. */
export function PageChrome() {
  return (
    <>
      <SkipLink />
      <NavigationProgress />
      <FocusOnNavigate />
    </>
  );
}
