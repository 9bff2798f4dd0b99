// OPTIONS (issue 28): what a path answers, said without running it. React Router treated OPTIONS
// as a read on an /api route (the loader ran: a guest got 401, a signed-in user the data) and as
// an invalid method on a page (an HTML 405 "Something went wrong"). Every vertical now answers it
// here, before the request context exists (no D1, no loader, no action): 204 with `Allow`, the
// methods of the route the path matches — for /api the contract's (modules/contract), for a page
// GET and HEAD, and POST where the page has an action. An /api path no route serves is the API's
// 404. There is no CORS: the API is same-origin only, so no Access-Control-* header is sent.
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { API_OPERATIONS } from "../modules/contract/index";
import { errorResponse } from "../modules/shared/index";


/** The contract's methods per route pattern under /api ("echo/like/:id" → POST, DELETE). */
const API_METHODS = new Map<string, string[]>();
for (const op of API_OPERATIONS) API_METHODS.set(op.route, [...(API_METHODS.get(op.route) ?? []), op.method]);

const trees = new WeakMap<ServerBuild["routes"], RouteObject[]>();

/** The build's flat route manifest as the tree matchRoutes takes. */
function treeOf(routes: ServerBuild["routes"]): RouteObject[] {
  let tree = trees.get(routes);
  if (tree) return tree;
  const children = new Map<string, RouteObject[]>();
  const nodes = new Map<string, RouteObject>();
  for (const r of Object.values(routes)) {
    if (!r) continue;
    const kids: RouteObject[] = [];
    children.set(r.id, kids);
    nodes.set(r.id, r.index ? { id: r.id, path: r.path, index: true } : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: kids });
  }
  tree = [];
  for (const r of Object.values(routes)) {
    if (!r) continue;
    const siblings = r.parentId ? children.get(r.parentId) : tree;
    siblings?.push(nodes.get(r.id)!);
  }
  trees.set(routes, tree);
  return tree;
}

/** The methods a path answers, in Allow order; null when it is an /api path no route serves. */
export function allowedMethods(build: ServerBuild, pathname: string): string[] | null {
  const matches = matchRoutes(treeOf(build.routes), pathname) ?? [];
  const leafId = matches.at(-1)?.route.id;
  const route = leafId === undefined ? undefined : build.routes[leafId];
  const api = pathname.startsWith("/api/");
  if (api) {
    const methods = route?.path?.startsWith("api/") ? API_METHODS.get(route.path.slice("api/".length)) : undefined;
    if (!methods) return null;
    return [...(methods.includes("GET") ? ["GET", "HEAD"] : []), ...methods.filter((m) => m !== "GET"), "OPTIONS"];
  }
  const methods = ["GET", "HEAD"];
  if (route?.module.action) methods.push("POST");
  return [...methods, "OPTIONS"];
}

/** The answer to an OPTIONS request: 204 + Allow, or the API's 404 for an /api path no route serves. */
export function answerOptions(build: ServerBuild, url: URL): Response {
  const methods = allowedMethods(build, url.pathname);
  if (!methods) return errorResponse(404, "No such API route");
  return new Response(null, { status: 204, headers: { Allow: methods.join(", "), "Cache-Control": "no-store" } });
}
