// Request and response hardening that applies to every route.
export const MAX_BODY_BYTES = 64 * 1024;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function json(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: message, message }, { status, headers });
}

/** A WebSocket handshake: a GET, but one that opens a channel carrying the cookie's identity. */
export const isWebSocketUpgrade = (request: Request) => request.headers.get("Upgrade")?.toLowerCase() === "websocket";

/**
 * CSRF: a write whose Origin is another site is refused. Browsers send Origin on every
 * cross-site POST/PUT/PATCH/DELETE; clients without one (curl, other servers) carry no cookies
 * of a victim's browser. Sec-Fetch-Site covers browsers that omit Origin. A WebSocket upgrade is
 * a GET that the same-origin policy does not protect (browsers send cookies and Origin on a
 * cross-site handshake and let the page read the socket): it gets the same check
 * (cross-site WebSocket hijacking, decision 016).
 */
export function checkOrigin(request: Request): Response | null {
  if (SAFE_METHODS.has(request.method) && !isWebSocketUpgrade(request)) return null;
  const url = new URL(request.url);
  const origin = request.headers.get("Origin");
  if (origin && origin !== url.origin) return json(403, "Cross-site request refused");
  const site = request.headers.get("Sec-Fetch-Site");
  if (!origin && site && site !== "same-origin" && site !== "none") return json(403, "Cross-site request refused");
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
 * Safety net for /api: an error that is not in the API's shape (`{ error, message }`), from
 * something below our routes (React Router's own answers), is given that shape with the same
 * status. Success bodies pass untouched; error bodies are small.
 */
export async function apiErrorShape(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const isJson = (response.headers.get("Content-Type") ?? "").startsWith("application/json");
  const body = isJson ? ((await response.clone().json().catch(() => null)) as { error?: unknown; message?: unknown } | null) : null;
  if (body && typeof body.error === "string" && body.error === body.message) return response;
  const message =
    response.status === 404 ? "No such API route" : response.status >= 500 ? "Something went wrong" : response.statusText || "Request refused";
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ error: message, message }), { status: response.status, headers });
}

const tooLarge = () => json(413, "Request body too large (64 KB at most)");

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
