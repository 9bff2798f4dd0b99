// The edge router (docs/decisions/011): every request passes here once. It does what every
// answer needs (body limit, method and CSRF checks, JSON-only /api bodies, the client address,
// request id, CSP nonce, security headers, the API's error shape) and hands the request to the vertical Worker that owns its path.
import {
  ASSET_PREFIX,
  NONCE_HEADER,
  REQUEST_ID_HEADER,
  isVertical,
  verticalOf,
  type Vertical,
} from "../modules/verticals/index";
import { errorBody } from "../modules/shared/index";
import { apiErrorShape, checkOrigin, clientIpHeaders, limitBody, newNonce, refuseUnknownMethod, requireJsonBody, securityHeaders } from "./security";

/** Sends a request to a vertical: a service binding in production, the in-process app in `npm run dev`. */
export type Forward = (vertical: Vertical, request: Request) => Promise<Response>;

export type RouteOptions = {
  /**
   * Not on Cloudflare's edge (the `LOCAL_RUNTIME` var, set only by `.dev.vars`): a client's
   * CF-Connecting-IP is then its own choice and is replaced (clientIpHeaders).
   */
  localRuntime?: boolean;
};

/** The `LOCAL_RUNTIME` var as the router reads it. */
export const isLocalRuntime = (value: unknown) => String(value ?? "") === "1";

const noSuchApiRoute = () => Response.json(errorBody("No such API route"), { status: 404 });

/**
 * `/_v/<vertical>/assets/x.js` → that vertical, as `/assets/x.js` (its build's asset directory
 * has no prefix). Any other path → the vertical modules/verticals names, unchanged.
 */
export function destination(url: URL): { vertical: Vertical; path: string } | null {
  if (!url.pathname.startsWith(ASSET_PREFIX)) return { vertical: verticalOf(url.pathname), path: url.pathname };
  const rest = url.pathname.slice(ASSET_PREFIX.length);
  const slash = rest.indexOf("/");
  const name = slash < 0 ? rest : rest.slice(0, slash);
  if (!isVertical(name) || slash < 0) return null;
  return { vertical: name, path: rest.slice(slash) };
}

/**
 * A vertical's built files have content hashes in their names, so a browser may keep them: without
 * this, each document navigation into a vertical revalidated every script it had (a 304 each,
 * through the router), the asset layer's default being `max-age=0, must-revalidate`.
 */
function immutable(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", "public, max-age=31536000, immutable");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export async function route(request: Request, forward: Forward, { localRuntime = false }: RouteOptions = {}): Promise<Response> {
  const url = new URL(request.url);
  const secure = url.protocol === "https:";
  const nonce = newNonce();
  const requestId = crypto.randomUUID();
  const finish = (response: Response) => {
    const done = securityHeaders(response, nonce, secure);
    done.headers.set(REQUEST_ID_HEADER, requestId);
    return done;
  };
  // the body is read (or refused) first, so that no answer, the CSRF 403 included, leaves an
  // upload unread (see limitBody)
  const limited = await limitBody(request);
  const refused = refuseUnknownMethod(request) ?? checkOrigin(request);
  if (refused) return finish(refused);
  if (limited instanceof Response) return finish(limited);

  const isApi = url.pathname.startsWith("/api/");
  const unsupported = isApi ? requireJsonBody(limited) : null;
  if (unsupported) return finish(unsupported);
  const target = destination(url);
  if (!target) return finish(new Response("Not found", { status: 404 }));
  const headers = clientIpHeaders(new Headers(limited.headers), localRuntime);
  // the client's own values of these never reach a vertical: the router's are the contract
  headers.set(NONCE_HEADER, nonce);
  headers.set(REQUEST_ID_HEADER, requestId);
  const targetUrl = new URL(url);
  targetUrl.pathname = target.path;
  let response = await forward(target.vertical, new Request(targetUrl, { method: limited.method, headers, body: limited.body, redirect: "manual" }));
  // an accepted WebSocket (/api/live): the socket travels on the response object itself, which a
  // rebuilt Response would drop; a 101 has no document for the headers below to protect
  if (response.status === 101) return response;
  // /api always answers JSON: a path the api splat cannot match (an encoded newline, say)
  // must not fall through to the HTML not-found page.
  if (isApi && (response.headers.get("Content-Type") ?? "").startsWith("text/html")) response = noSuchApiRoute();
  if (isApi) response = apiErrorShape(response);
  if (url.pathname.startsWith(ASSET_PREFIX) && response.status === 200) response = immutable(response);
  return finish(response);
}
