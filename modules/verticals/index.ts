// The micro-frontend cut (docs/decisions/011-micro-frontends.md, docs/architecture.md): which
// vertical Worker owns each URL, read from the one table of routes (./table.ts). routes/routes.ts
// keeps a vertical's own rows when it is built (VERTICAL=echos …), the router Worker (worker/)
// sends each request to the owner's service binding, and the client makes a link into another
// vertical a document navigation. Imports only ./table.ts, with its extension: node scripts and
// the route config load these files as they are.
import { ROUTE_TABLE, VERTICALS, type RouteRow, type Vertical } from "./table.ts";

export { CATCH_ALLS, ROUTE_TABLE, VERTICALS, apiRoutePaths, type ApiRoutePath, type Place, type RouteRow, type Vertical } from "./table.ts";

/** Where unmatched paths go (the not-found page and the API's 404 live in every vertical). */
export const DEFAULT_VERTICAL: Vertical = "echos";

/**
 * The part of the URL space a route claims for its vertical: its first segment ("/echo/*" for
 * `echo/:id`; the page itself when it has one segment), two under /api ("/api/echo/*"). A trailing
 * `*` owns the rest, possibly empty: `/scrolls/*` owns `/scrolls` too.
 */
function claim(row: RouteRow): string {
  const segments = (row.place === "api" ? `api/${row.path}` : row.path).split("/").filter(Boolean);
  const head = segments[0] === "api" ? 2 : 1;
  return segments.length > head ? `/${segments.slice(0, head).join("/")}/*` : `/${segments.join("/")}`;
}

/**
 * Path patterns and their owner, from a table of routes (first match wins): a literal segment,
 * `:param` (one segment) or a trailing `*`. Two verticals claiming one pattern is refused, so a
 * route put under the wrong vertical fails every build and test.
 */
export function ownership(table: Readonly<Record<Vertical, readonly RouteRow[]>>): [pattern: string, vertical: Vertical][] {
  const owner = new Map<string, Vertical>();
  for (const vertical of VERTICALS) {
    for (const row of table[vertical]) {
      const pattern = claim(row);
      const before = owner.get(pattern);
      if (before && before !== vertical) throw new Error(`modules/verticals: ${pattern} is claimed by ${before} and ${vertical} (${row.path})`);
      owner.set(pattern, vertical);
    }
  }
  // `/x/*` owns `/x`: the bare pattern is then redundant
  return [...owner].filter(([pattern]) => !owner.has(`${pattern}/*`));
}

/**
 * In a Vite build the patterns arrive made (vite.config.ts `define`): the client ships them, not
 * the whole table (about 0.9 KB gzip on every first page); elsewhere they are made here.
 */
export const VERTICAL_PATHS: ReadonlyArray<readonly [pattern: string, vertical: Vertical]> =
  typeof __VERTICAL_PATHS__ === "undefined" ? ownership(ROUTE_TABLE) : __VERTICAL_PATHS__;

/** Each vertical's client assets live under their own prefix (Vite `base`), so the router can tell them apart. */
export const ASSET_PREFIX = "/_v/";
export const assetBase = (vertical: Vertical) => `${ASSET_PREFIX}${vertical}/`;

function matches(pattern: string, path: string): boolean {
  const want = pattern.split("/").filter(Boolean);
  const got = path.split("/").filter(Boolean);
  if (want.at(-1) === "*") {
    want.pop();
    if (got.length < want.length) return false;
  } else if (got.length !== want.length) return false;
  return want.every((segment, i) => segment.startsWith(":") || segment === got[i]);
}

/**
 * The vertical that owns a URL path. React Router's data requests (`/echo/5.data`, `/_.data` for
 * `/`) belong to the page they load. Unknown paths go to DEFAULT_VERTICAL.
 */
export function verticalOf(pathname: string): Vertical {
  return ownerOf(pathname) ?? DEFAULT_VERTICAL;
}

/** The vertical VERTICAL_PATHS names for a path, or null where none does. */
export function ownerOf(pathname: string): Vertical | null {
  let path = pathname;
  if (path.endsWith("/_.data")) path = path.slice(0, -"_.data".length);
  else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  for (const [pattern, vertical] of VERTICAL_PATHS) if (matches(pattern, path)) return vertical;
  return null;
}

/** Catch-all routes (`*`): every vertical serves them, so each can answer its own 404s. */
export const isCatchAll = (routePath: string) => routePath === "*" || routePath.endsWith("/*");

export function isVertical(name: string | undefined): name is Vertical {
  return (VERTICALS as readonly string[]).includes(name ?? "");
}

/**
 * The router → vertical request contract: the router makes the CSP nonce of the answer (and
 * sets the header that names it); the vertical renders its scripts with that nonce. Request ids
 * are made once, by the router, and travel to the vertical for its logs.
 */
export const NONCE_HEADER = "X-Echo-Nonce";
export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * A redirect (a loader's or action's, a document's or a data request's) to a page of another
 * vertical must reload the document: this client's router does not know that page. React Router
 * reads this header into its single-fetch redirect and navigates with `window.location`.
 */
export function reloadAcrossVerticals(response: Response, current: string, origin: string): Response {
  const location = response.headers.get("Location");
  if (!current || !location || response.status < 300 || response.status >= 400) return response;
  const target = new URL(location, origin);
  if (target.origin !== origin || verticalOf(target.pathname) === current) return response;
  const headers = new Headers(response.headers);
  headers.set("X-Remix-Reload-Document", "true");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
