// Navigation across verticals (docs/decisions/011): this document's client router knows only its
// own vertical's routes, so a navigation to a page of another vertical — a <Link>, navigate(), a
// GET <Form> — becomes a document navigation (the router Worker sends it to its owner). Inside the
// vertical everything stays client-side. Redirects are handled on the server
// (reloadAcrossVerticals); history back/forward across documents is the browser's own.
import { useLayoutEffect } from "react";
import { matchRoutes, type RouteObject } from "react-router";
import { carryToasts } from "~/modules/shared/index";
import { verticalOf } from "~/modules/verticals/index";

type To = string | number | { pathname?: string; search?: string; hash?: string } | null | undefined;
type NavigateOptions = { replace?: boolean; formData?: unknown; formMethod?: string } | undefined;
type DataRouter = { navigate: (to: To, options?: NavigateOptions) => Promise<void>; routes: RouteObject[] };

/** An absolute in-app path of a navigation target, or null for relative and history moves (they stay here). */
function absolutePath(to: To): string | null {
  if (typeof to === "string") return to.startsWith("/") && !to.startsWith("//") ? to : null;
  if (to && typeof to === "object" && to.pathname?.startsWith("/")) return `${to.pathname}${to.search ?? ""}${to.hash ?? ""}`;
  return null;
}

/** Whether a navigation target belongs to another vertical than the one this document runs. */
export function isOtherVertical(path: string, current = __ECHO_VERTICAL__): boolean {
  // one app with every route (npm run dev): nothing is elsewhere
  if (!current) return false;
  return verticalOf(new URL(path, "http://x").pathname) !== current;
}

/**
 * Whether this document's own routes have a page for a path (more than the catch-all 404).
 * Version skew (decision 011): a vertical built before another vertical gained a path still
 * holds the older table, which sends that path to the default vertical — this one, perhaps. Its
 * client must not then render its own "not found" for a page that exists elsewhere: a path it
 * has no route for is a document navigation, and the router Worker, deployed with the newer
 * table, sends it to its owner.
 */
export function hasOwnRoute(routes: RouteObject[], path: string): boolean {
  const matches = matchRoutes(routes, new URL(path, "http://x").pathname);
  return !!matches?.length && matches[matches.length - 1]!.route.path !== "*";
}

/** Wraps the data router's navigate (used by <Link>, useNavigate and <Form>) once the app is mounted. */
export function useDocumentNavigationAcrossVerticals(): void {
  useLayoutEffect(() => {
    const router = (window as { __reactRouterDataRouter?: DataRouter }).__reactRouterDataRouter;
    if (!router || !__ECHO_VERTICAL__) return;
    const navigate = router.navigate;
    router.navigate = (to, options) => {
      const path = absolutePath(to);
      const mutation = options?.formData !== undefined && (options.formMethod ?? "get").toLowerCase() !== "get";
      if (!path || mutation || (!isOtherVertical(path) && hasOwnRoute(router.routes, path))) return navigate.call(router, to, options);
      carryToasts();
      if (options?.replace) window.location.replace(path);
      else window.location.assign(path);
      // the document is going away; nothing here settles
      return new Promise<void>(() => {});
    };
    return () => {
      router.navigate = navigate;
    };
  }, []);
}
