// D1 read replication (docs/decisions/017-read-replicas.md): every request runs its queries in
// one D1 session. This file holds the pure rules: what a bookmark looks like, and where a
// request's session starts.

/** Where a D1 session starts: a visitor's last bookmark, or one of D1's two constraints. */
export type SessionStart = string | "first-primary" | "first-unconstrained";

/**
 * D1's bookmarks as the runtime hands them out: four lower-case hex groups (8-8-8-32), e.g.
 * `00000000-00000016-00000000-00000000000000000000000000000000`. The local runtime takes any
 * string as a bookmark and keeps it for good (a session's bookmark is the greatest it has seen,
 * compared as text, and "garbage" sorts after every real one), so anything else is refused here.
 */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

export function isBookmark(value: unknown): value is string {
  return typeof value === "string" && BOOKMARK.test(value);
}

/**
 * Paths whose reads must see the primary even on GET: the account vertical (sign-in, sign-up,
 * logout, settings, "who am I"), where a password change or a session revoked from another
 * browser must show at once, not after a replica catches up.
 */
const PRIMARY_PREFIXES = ["/login", "/signup", "/logout", "/settings", "/api/auth/"];

function isPrimaryPath(pathname: string): boolean {
  // React Router's data requests (`/settings.data`) belong to the page they load
  const path = pathname.replace(/\.data$/, "");
  return PRIMARY_PREFIXES.some((p) => (p.endsWith("/") ? path.startsWith(p) : path === p || path.startsWith(`${p}/`)));
}

/**
 * Where a request's session starts:
 * - writes (any method but GET/HEAD) and the account paths: at the primary, so a write's own
 *   checks (session still live, name still free, row still theirs) read the latest state;
 * - a read with a valid bookmark: from that bookmark (a replica at least that fresh);
 * - a read with none from a signed-in browser: at the primary (its last write is unknown);
 * - an anonymous read with none (a first visit): anywhere, the nearest replica.
 */
export function sessionStart(request: { method: string; pathname: string; bookmark: unknown; signedIn: boolean }): SessionStart {
  const read = request.method === "GET" || request.method === "HEAD";
  if (!read || isPrimaryPath(request.pathname)) return "first-primary";
  if (isBookmark(request.bookmark)) return request.bookmark;
  return request.signedIn ? "first-primary" : "first-unconstrained";
}
