// Where a guest goes back to after signing in (issue 29): a shared /echo/{id} link sends a guest
// to /login?next=/echo/{id}, and signing in (or up) lands on the echo instead of home. The target
// comes from the address bar, so it is checked before anyone is sent there: only a path on this
// site, never another origin (no open redirect).

/** The query parameter of /login and /signup naming the page to go back to. */
export const RETURN_PARAM = "next";

const BASE = "http://echo.invalid";
/** Pages that would send the user round in a circle, or are not pages. */
const NOT_A_DESTINATION = /^\/(login|signup|logout)$|^\/api(\/|$)/;

/**
 * The path to go back to, or null when `raw` is not a same-origin path: it must start with one
 * `/` (not `//host`, which a browser reads as another site), hold no `\` (browsers read `/\host`
 * as `//host`) and no control character (they drop tabs and line breaks: `/\t/host` is `//host`),
 * and resolve on this origin. The answer is the parsed path, query and fragment.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2000 || raw[0] !== "/" || raw[1] === "/" || raw.includes("\\")) return null;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || NOT_A_DESTINATION.test(url.pathname)) return null;
  return url.pathname + url.search + url.hash;
}

/** /login (or /signup) keeping the way back: without one (or home) the plain path. */
export function authPathFor(page: "/login" | "/signup", returnTo: string | null | undefined): string {
  const path = safeReturnPath(returnTo);
  return path && path !== "/" ? `${page}?${RETURN_PARAM}=${encodeURIComponent(path)}` : page;
}

/** The page a server request is for, as React Router's data requests name it (`/x.data` is `/x`). */
export function pagePathOf(request: Request): string {
  const url = new URL(request.url);
  const pathname = url.pathname.endsWith("/_.data") ? url.pathname.slice(0, -"_.data".length) : url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  const search = url.searchParams.toString();
  return pathname + (search ? `?${search}` : "");
}
