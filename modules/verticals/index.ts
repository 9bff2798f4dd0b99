// The micro-frontend cut (docs/decisions/011-micro-frontends.md): which vertical Worker owns each
// URL. One table serves three readers: routes/routes.ts keeps a vertical's own routes when it is
// built (VERTICAL=echos …), the router Worker (worker/) sends each request to the owner's service
// binding, and the client makes a link into another vertical a document navigation. A route added
// elsewhere needs one line here. No imports: the route config and the router load it as it is.

export const VERTICALS = ["echos", "scrolls", "community", "people", "account"] as const;
export type Vertical = (typeof VERTICALS)[number];

/** Where unmatched paths go (the not-found page and the API's 404 live in every vertical). */
export const DEFAULT_VERTICAL: Vertical = "echos";

/**
 * Path patterns, first match wins: a literal segment, `:param` (one segment) or a trailing `*`
 * (the rest, possibly empty: `/echo/*` owns `/echo` and everything below it).
 */
export const VERTICAL_PATHS: ReadonlyArray<readonly [pattern: string, vertical: Vertical]> = [
  ["/", "echos"],
  ["/new", "echos"],
  ["/echo/*", "echos"],
  ["/tag/*", "echos"],
  ["/create-echo", "echos"],
  ["/api/echo/*", "echos"],

  ["/scroll/*", "scrolls"],
  ["/scrolls/*", "scrolls"],
  ["/create-scroll", "scrolls"],
  ["/api/scroll/*", "scrolls"],
  // live updates (decision 016): the sockets' objects live in the echos Worker, which posts; the
  // upgrade route sits here, off home's route manifest (its initial JS)
  ["/api/live", "scrolls"],

  ["/community", "community"],
  ["/browse-community", "community"],
  ["/browse/*", "community"],
  ["/api/community/*", "community"],

  ["/profile", "people"],
  ["/user/*", "people"],
  ["/search", "people"],
  ["/api/profile/*", "people"],
  ["/api/search/*", "people"],
  ["/notifications", "people"],
  ["/api/notifications/*", "people"],

  ["/login", "account"],
  ["/signup", "account"],
  ["/logout", "account"],
  ["/settings", "account"],
  ["/api/auth/*", "account"],
  ["/api/health", "account"],
  ["/api/openapi.json", "account"],
  ["/developers", "account"],
];

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
