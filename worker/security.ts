// Request and response hardening that applies to every route.
import { ERROR_SHAPE_HEADER, errorBody } from "../modules/shared/index";
export const MAX_BODY_BYTES = 64 * 1024;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// the router's own refusals: the API's shape, written by the same function as every other one
// (unmarked: they are the last word, nothing below reads them)
function json(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json(errorBody(message), { status, headers });
}

/** A WebSocket handshake: a GET, but one that opens a channel carrying the cookie's identity. */
export const isWebSocketUpgrade = (request: Request) => request.headers.get("Upgrade")?.toLowerCase() === "websocket";

/**
 * CSRF: a write whose Origin is another site is refused. Browsers send Origin on every
 * cross-site POST/PUT/PATCH/DELETE; clients without one (curl, other servers) carry no cookies
 * of a victim's browser. A WebSocket upgrade is a GET that the same-origin policy does not
 * protect (browsers send cookies and Origin on a cross-site handshake and let the page read the
 * socket): it gets the same check (cross-site WebSocket hijacking, decision 016).
 *
 * Same origin means scheme, host and port: `https://host` is not `http://host`. Sec-Fetch-Site,
 * which browsers send with Origin, is checked too, whatever the Origin says: anything but
 * `same-origin` (or `none`, a user's own navigation) is refused. Locally that is what holds the
 * scheme: wrangler's dev proxy rewrites every header URL naming its own host to its own origin,
 * scheme included, so an `Origin: https://host` reaches the Worker as `http://host`; it leaves
 * Sec-Fetch-Site alone (docs/security.md "Same origin, scheme included").
 */
export function checkOrigin(request: Request): Response | null {
  if (SAFE_METHODS.has(request.method) && !isWebSocketUpgrade(request)) return null;
  const origin = request.headers.get("Origin");
  // a URL's origin is its scheme, host and port, serialized as browsers send Origin
  if (origin !== null && origin !== new URL(request.url).origin) return json(403, "Cross-site request refused");
  const site = request.headers.get("Sec-Fetch-Site");
  if (site && site !== "same-origin" && site !== "none") return json(403, "Cross-site request refused");
  return null;
}

/**
 * Past this much, an oversized upload is cancelled instead of read to its end. It is Cloudflare's
 * own request-body limit (Free and Pro plans): the edge refuses anything larger with its 413
 * before the Worker runs, so in production every oversized upload is drained and gets our 413.
 * A cancelled upload is what made wrangler's runtime answer a text 500 naming its own source
 * file ("Network connection lost", a 2 MB body in 1 of 6 runs, 10 MB in 2 of 6, when the cap
 * was 1 MB): draining costs wall time, not CPU.
 */
export const DRAIN_CAP_BYTES = 100 * 1024 * 1024;

/** The methods the app answers; any other gets the API's 405 before routing (issue 12). */
const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * TRACE, PROPFIND and other methods no route serves: a 405 in the API's error shape, pages
 * included (no browser navigates with them). React Router answered them with
 * `{"message":"Unexpected Server Error"}` on /api.
 */
export function refuseUnknownMethod(request: Request): Response | null {
  if (KNOWN_METHODS.includes(request.method)) return null;
  return json(405, "Method not allowed", { Allow: KNOWN_METHODS.join(", ") });
}

/**
 * Safety net for /api: an error answer not made by `errorResponse` (React Router's own answers, a
 * runtime's text 500) is given the API's shape (`{ error, message }`) with the same status; ours
 * carry a mark, removed here. Neither body is read: an error is shaped once, where it is made.
 */
export function apiErrorShape(response: Response): Response {
  if (response.status < 400 && !response.headers.has(ERROR_SHAPE_HEADER)) return response;
  const headers = new Headers(response.headers);
  headers.delete(ERROR_SHAPE_HEADER);
  if (response.headers.has(ERROR_SHAPE_HEADER) || response.status < 400) {
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  const message =
    response.status === 404 ? "No such API route" : response.status >= 500 ? "Something went wrong" : response.statusText || "Request refused";
  headers.delete("Content-Length");
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ error: message, message }), { status: response.status, headers });
}

const tooLarge = () => json(413, "Request body too large (64 KB at most)");

/** The methods whose body an /api route reads (GET and HEAD bodies are dropped, OPTIONS reads none). */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const UNSUPPORTED_MEDIA_TYPE = "Content-Type must be application/json (UTF-8)";

/**
 * `application/json`, any letter case, with parameters; a charset, if named, must be UTF-8 (the
 * only one JSON has, and the only one the API decodes).
 */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [type = "", ...params] = value.split(";");
  if (type.trim().toLowerCase() !== "application/json") return false;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    const charset = param.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1").toLowerCase();
    if (charset !== "utf-8" && charset !== "utf8") return false;
  }
  return true;
}

/**
 * The JSON API reads JSON only (issue 28): a POST/PUT/PATCH/DELETE to /api whose body is not
 * empty must say `Content-Type: application/json`; anything else (text/plain, a form, multipart,
 * XML, none) is 415 before any vertical sees it, so it changes nothing. A request without a body
 * (none, or Content-Length: 0) needs no Content-Type: the routes that take none (a like, a
 * follow, logout, mark read…) are called so, and those that need one answer 400. `request` is
 * what limitBody returned: an empty body is no body.
 */
export function requireJsonBody(request: Request): Response | null {
  if (!BODY_METHODS.has(request.method) || request.body === null) return null;
  if (isJsonContentType(request.headers.get("Content-Type"))) return null;
  return json(415, UNSUPPORTED_MEDIA_TYPE, { Accept: "application/json" });
}

/** What a rate limit counts as the client when the client's address cannot be known. */
export const LOCAL_CLIENT_IP = "127.0.0.1";

/**
 * The client address the verticals read (CF-Connecting-IP, for the rate limits). On Cloudflare's
 * edge the edge sets it and overwrites any a client sent, so it is passed on. Elsewhere (wrangler's
 * local runtime, `npm start`, `npm run dev`: `LOCAL_RUNTIME=1`, which only `.dev.vars` sets) a
 * client's own header passes through unchanged, so a client could choose its address and slip
 * every per-IP limit: there it is replaced by one fixed address for everyone. `request.cf` cannot
 * tell the two apart: the local runtime fills it in too.
 */
export function clientIpHeaders(headers: Headers, localRuntime: boolean): Headers {
  if (localRuntime) headers.set("CF-Connecting-IP", LOCAL_CLIENT_IP);
  return headers;
}

/** Read and discard the rest of a body; past DRAIN_CAP_BYTES (in all), cancel it. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, size: number): Promise<void> {
  while (size <= DRAIN_CAP_BYTES) {
    const next = await reader.read();
    if (next.done) return;
    size += next.value.byteLength;
  }
  await reader.cancel();
}

/**
 * Read every request body to its end before anything answers, and refuse bodies over 64 KB
 * (413), whether they announce their length or stream it. Every method, GET and HEAD included:
 * an answer sent while the client is still uploading makes wrangler's local runtime drop the
 * connection ("Network connection lost" / a reset fetch) instead of delivering it. That bit us
 * three times (found by the fuzzer): an unread OPTIONS body, a cancelled oversized stream, and a
 * declared Content-Length over 64 KB answered 413 without reading. Only an upload past
 * DRAIN_CAP_BYTES (100 MB, which Cloudflare's edge refuses first) is cancelled.
 * Returns the request with its body buffered (none for GET/HEAD), or the error response.
 */
export async function limitBody(request: Request): Promise<Request | Response> {
  if (!request.body) return request;
  const reader = request.body.getReader();
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    if (declared > DRAIN_CAP_BYTES) {
      await reader.cancel();
      return tooLarge();
    }
    if (declared > MAX_BODY_BYTES) {
      await drain(reader, 0);
      return tooLarge();
    }
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await drain(reader, size);
        return tooLarge();
      }
      chunks.push(value);
    }
  } catch {
    // the client went away mid-upload (or sent a broken chunked body): nobody reads this answer
    return json(400, "Request body could not be read");
  }
  // a GET or HEAD may arrive with a body (curl -X GET --data): read above, dropped here, since a
  // Request with those methods cannot carry one (rebuilding it with the body threw: a 500)
  if (request.method === "GET" || request.method === "HEAD") {
    return new Request(request.url, { method: request.method, headers: request.headers, signal: request.signal });
  }
  // an empty body is no body (the 415 check of requireJsonBody reads body === null so)
  if (size === 0) return new Request(request, { body: null });
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new Request(request, { body });
}

export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function securityHeaders(response: Response, nonce: string, secure: boolean): Response {
  const headers = new Headers(response.headers);
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  headers.set("Content-Security-Policy", csp);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (secure) headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
