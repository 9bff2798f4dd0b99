// Speculation Rules (docs/decisions/011): a link into another vertical is a document navigation,
// so the browser fetches that document ahead — prefetch on hover or press (moderate), and a full
// prerender for the shell's own links (sidebar, top bar), the likeliest next pages. Links inside
// this vertical are left alone: its client router already loads their data on its own.
import { VERTICAL_PATHS, type Vertical } from "~/modules/verticals/index";
import { useNonce } from "./nonce";

/** Pages that must never be fetched ahead: /logout is a GET that only redirects, but ahead of time it is noise. */
const NEVER = ["/logout", "/api/*"];

export function speculationRules(current: Vertical) {
  const elsewhere = VERTICAL_PATHS.filter(([pattern, vertical]) => vertical !== current && !pattern.startsWith("/api/")).map(([pattern]) => pattern);
  const links = { and: [{ href_matches: elsewhere }, { not: { href_matches: NEVER } }] };
  return {
    prerender: [{ where: { and: [links, { selector_matches: ".sidebar a, .topbar a" }] }, eagerness: "moderate" }],
    prefetch: [{ where: links, eagerness: "moderate" }],
  };
}

/** The rules of the vertical this build serves; nothing in the one-app dev server. */
export function SpeculationRules() {
  const nonce = useNonce();
  if (!__ECHO_VERTICAL__) return null;
  const rules = JSON.stringify(speculationRules(__ECHO_VERTICAL__ as Vertical));
  return <script type="speculationrules" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: rules }} />;
}
