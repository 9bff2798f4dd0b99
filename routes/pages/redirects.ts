import { redirect } from "react-router";
import type { Route } from "./+types/redirects";

// Old links of the profile page (spec §2): /create-echo → /new, /create-scroll → /scroll/new.
export function loader({ request }: Route.LoaderArgs) {
  return redirect(new URL(request.url).pathname === "/create-echo" ? "/new" : "/scroll/new", 301);
}
