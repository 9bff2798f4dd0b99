// Reading request cookies. Anyone can plant a cookie on a browser (a sibling subdomain, a
// crafted link through another app), so a value that does not decode is treated as absent:
// a bad cookie must never turn into a 500 on every page (issue 12).

/** The decoded value of cookie `name`, or null when it is absent or not valid percent-encoding. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null; // a malformed value ("%", "%E0%A4%A") is no cookie at all
    }
  }
  return null;
}

/** Whether the request carries a cookie called `name` at all (well-formed or not). */
export function hasCookie(request: Request, name: string): boolean {
  return (request.headers.get("Cookie") ?? "").split(";").some((part) => part.split("=")[0]!.trim() === name);
}
