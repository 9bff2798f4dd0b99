import { hasCookie, type AppContext } from "../shared/index.server";
import { sessionCookieOf } from "./session.server";

/**
 * Whether the browser sends a session cookie at all (checked or not): enough for choosing where
 * a request's D1 session starts (decision 017) before any route looks at the viewer.
 */
export function carriesSessionCookie(app: Pick<AppContext, "secure">, request: Request): Promise<boolean> {
  return hasCookie(request, sessionCookieOf(app));
}
