// Request and response hardening that applies to every route.
export const MAX_BODY_BYTES = 64 * 1024;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function json(status: number, message: string): Response {
  return Response.json({ error: message, message }, { status });
}

/**
 * CSRF: a write whose Origin is another site is refused. Browsers send Origin on every
 * cross-site POST/PUT/PATCH/DELETE; clients without one (curl, other servers) carry no cookies
 * of a victim's browser. Sec-Fetch-Site covers browsers that omit Origin.
 */
export function checkOrigin(request: Request): Response | null {
  if (SAFE_METHODS.has(request.method)) return null;
  const url = new URL(request.url);
  const origin = request.headers.get("Origin");
  if (origin && origin !== url.origin) return json(403, "Cross-site request refused");
  const site = request.headers.get("Sec-Fetch-Site");
  if (!origin && site && site !== "same-origin" && site !== "none") return json(403, "Cross-site request refused");
  return null;
}

/** Bodies over 64 KB answer 413, whether they announce their length or stream it. */
export async function limitBody(request: Request): Promise<Request | Response> {
  // any method may carry a body (OPTIONS can): read and limit it before answering, or a client
  // still uploading sees its connection reset (found by the fuzzer)
  if (!request.body) return request;
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > MAX_BODY_BYTES) return json(413, "Request body too large (64 KB at most)");
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      // drain the rest (up to a hard cap) rather than cancel: a cancelled upload drops the
      // connection in the runtime's proxy instead of letting the 413 through (found by the fuzzer)
      let drained = size;
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        drained += next.value.byteLength;
        if (drained > 16 * MAX_BODY_BYTES) {
          await reader.cancel();
          break;
        }
      }
      return json(413, "Request body too large (64 KB at most)");
    }
    chunks.push(value);
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
