// Reading request cookies through React Router's cookie API (createCookie): each cookie is one
// `Cookie` object that owns its name, attributes and encoding (JSON, then base64, then
// percent-encoding). Anyone can plant a cookie on a browser (a sibling subdomain, a crafted link
// through another app), so a value that does not decode to what its schema expects — bad
// percent-encoding, bad base64, ill-formed UTF-8, not JSON, the wrong shape — is treated as absent:
// a bad cookie never turns into a 500 (issue 12).
import type { Cookie } from "react-router";
import * as v from "valibot";
import { boundedCache } from "./bounded-cache";

// Decoding is a pure function of the header, and a browser sends the same header on request after
// request: each cookie's decoding is kept per header (profiled: decoding the session and bookmark
// cookies on every request cost about a millisecond of a home render's CPU).
const decodings = new WeakMap<Cookie, (header: string, decode: () => Promise<unknown>) => Promise<unknown>>();

/** What `cookie.parse` made of the request's Cookie header: null when absent, else its decoding. */
function parsed(request: Request, cookie: Cookie): Promise<unknown> {
  const header = request.headers.get("Cookie");
  if (!header) return Promise.resolve(null);
  let cache = decodings.get(cookie);
  if (!cache) decodings.set(cookie, (cache = boundedCache(256)));
  // React Router answers `{}` for a value it cannot decode; the catch only guards against a throw
  return cache(header, () => cookie.parse(header).catch(() => ({})));
}

/** The value of `cookie` when the request carries one that decodes to `schema`, else null. */
export async function readCookie<T>(
  request: Request,
  cookie: Cookie,
  schema: v.GenericSchema<unknown, T>,
): Promise<T | null> {
  const result = v.safeParse(schema, await parsed(request, cookie));
  return result.success ? result.output : null;
}

/** Whether the request carries `cookie` at all (well-formed or not). */
export async function hasCookie(request: Request, cookie: Cookie): Promise<boolean> {
  return (await parsed(request, cookie)) !== null;
}
