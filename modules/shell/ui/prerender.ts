// A page of another vertical rendered ahead by the Speculation Rules (./speculation-rules.tsx) ran
// its loaders when the pointer came to rest on its link, which may be long before it is shown:
// Chromium keeps a moderate prerender after the pointer leaves (up to two of them), and the user
// may have posted, followed or read something since. A page shown more than a moment after it was
// rendered loads its data again, in place: a replacing navigation to where it is, so that it gets
// a history key of its own (a feed's memory must not take the remount below for a Back), while the
// page stays on screen. Pages that copy their first data into state (a feed's list of echos) would
// not show what changed, so when the data did change the root remounts its routes with it, unless
// the user already pointed or typed there. One shown at once (the usual hover, then click) does
// not pay for a second request.
import { useEffect, useRef, useState } from "react";
import { useMatches } from "react-router";

/** Older than this when shown, a prerendered page reads its data again. */
export const PRERENDER_FRESH_MS = 1000;

type DataRouter = {
  state: { loaderData: unknown; location: { pathname: string; search: string; hash: string } };
  navigate: (to: string, options: { replace: boolean; preventScrollReset: boolean }) => Promise<void>;
};

/** How long a prerendered document waited between its start and being shown (0: it was not prerendered). */
export function prerenderAge(): number {
  const entry = performance.getEntriesByType("navigation")[0] as (PerformanceNavigationTiming & { activationStart?: number }) | undefined;
  return entry?.activationStart ?? 0;
}

/**
 * Mounted by the root: reloads the data of a prerendered page that is shown late. Returns a number
 * that changes when that brought other data: the root's key for its routes. It changes in the
 * render that has the new data (React Router hands it over in a transition, after `navigate`
 * resolves): a remount any earlier would start the page's state from the old data again.
 */
export function usePrerenderActivation(): number {
  const shownData = useMatches().map((match) => match.loaderData);
  const latest = useRef(shownData);
  latest.current = shownData;
  const [generation, setGeneration] = useState(0);
  // the route data that was on screen when fresh data arrived, until a render has the fresh data
  const [replaced, setReplaced] = useState<unknown[] | null>(null);
  if (replaced && (replaced.length !== shownData.length || replaced.some((data, i) => data !== shownData[i]))) {
    setReplaced(null);
    setGeneration((g) => g + 1);
  }

  useEffect(() => {
    const prerendering = (document as { prerendering?: boolean }).prerendering;
    // not prerendered, or prerendered and shown before it hydrated (its data is as old as that)
    if (!prerendering && !prerenderAge()) return;
    let touched = false;
    const touch = () => (touched = true);
    const shown = async () => {
      const router = (window as { __reactRouterDataRouter?: DataRouter }).__reactRouterDataRouter;
      if (!router || prerenderAge() <= PRERENDER_FRESH_MS) return;
      addEventListener("pointerdown", touch, { capture: true, once: true });
      addEventListener("keydown", touch, { capture: true, once: true });
      const before = latest.current;
      const json = JSON.stringify(router.state.loaderData);
      const { pathname, search, hash } = router.state.location;
      await router.navigate(`${pathname}${search}${hash}`, { replace: true, preventScrollReset: true });
      removeEventListener("pointerdown", touch, { capture: true });
      removeEventListener("keydown", touch, { capture: true });
      if (!touched && JSON.stringify(router.state.loaderData) !== json) setReplaced(before);
    };
    if (!prerendering) {
      void shown();
      return;
    }
    document.addEventListener("prerenderingchange", shown, { once: true });
    return () => document.removeEventListener("prerenderingchange", shown);
  }, []);
  return generation;
}
