// Speculation Rules (docs/decisions/011): a link into another vertical is a document navigation,
// so the browser fetches that document ahead — prefetch on hover or press (moderate) — and renders
// it ahead for the likeliest next pages: the shell's own links (sidebar, top bar) from a hover
// (moderate: 200 ms), any other link in the signed-in shell (an echo card's author, a scroll in the
// right panel) from the press (conservative), so the click activates a page that is already there.
// With a mouse, in a Chromium whose "eager" is a short hover (141 on), the shell's links are
// prerendered "eager": ~10 ms on the link instead of 200, most of a hover's head start (added by
// the client: elsewhere "eager" starts at once, for every link in view). Links inside this
// vertical are left alone: its client router already loads their data on its own.
// A prerendered page runs its loaders (all GETs without side effects) before it is shown; what
// keeps it fresh and its toasts is `usePrerenderActivation` (./prerender.ts).
import { VERTICAL_PATHS, type Vertical } from "~/modules/verticals/index";
import { useEffect } from "react";
import { useNonce } from "./nonce";

/** Pages that must never be fetched ahead: /logout is a GET that only redirects, but ahead of time it is noise. */
const NEVER = ["/logout", "/api/*"];

/**
 * A VERTICAL_PATHS pattern as a URL pattern for `href_matches`. The table's trailing `*` owns the
 * bare path too (`/scrolls/*` owns `/scrolls`), a URL pattern's `/*` does not: `/scrolls{/*}?` does.
 */
export function hrefPattern(pattern: string): string {
  return pattern.endsWith("/*") ? `${pattern.slice(0, -2)}{/*}?` : pattern;
}

/** The shell's own links: the likeliest next pages. */
const SHELL_LINKS = ".sidebar a, .topbar a";

/** Links into another vertical than `current`. */
function linksElsewhere(current: Vertical) {
  const elsewhere = VERTICAL_PATHS.filter(([pattern, vertical]) => vertical !== current && !pattern.startsWith("/api/")).map(([pattern]) => hrefPattern(pattern));
  return { and: [{ href_matches: elsewhere }, { not: { href_matches: NEVER } }] };
}

/** The client's addition where "eager" means a short hover (eagerIsHover). */
export function eagerShellRules(current: Vertical) {
  return { prerender: [{ where: { and: [linksElsewhere(current), { selector_matches: SHELL_LINKS }] }, eagerness: "eager" }] };
}

/**
 * Chromium 141 on, on a device with a mouse: "eager" waits for a short hover there. Before 141,
 * and on touch screens, "eager" is "as soon as possible" — every sidebar page prerendered at once.
 */
function eagerIsHover(): boolean {
  const brands = (navigator as { userAgentData?: { brands: { brand: string; version: string }[] } }).userAgentData?.brands ?? [];
  const chromium = Number(brands.find((b) => b.brand === "Chromium")?.version ?? 0);
  return chromium >= 141 && matchMedia("(hover: hover) and (pointer: fine)").matches;
}

export function speculationRules(current: Vertical) {
  const links = linksElsewhere(current);
  return {
    prerender: [
      { where: { and: [links, { selector_matches: SHELL_LINKS }] }, eagerness: "moderate" },
      { where: { and: [links, { selector_matches: ".shell a" }] }, eagerness: "conservative" },
    ],
    prefetch: [{ where: links, eagerness: "moderate" }],
  };
}

/** The rules of the vertical this build serves; nothing in the one-app dev server. */
export function SpeculationRules() {
  const nonce = useNonce();
  useEffect(() => {
    if (!__ECHO_VERTICAL__ || !eagerIsHover()) return;
    const script = document.createElement("script");
    script.type = "speculationrules";
    script.nonce = nonce ?? "";
    script.textContent = JSON.stringify(eagerShellRules(__ECHO_VERTICAL__ as Vertical));
    document.head.appendChild(script);
    return () => {
      script.parentNode?.removeChild(script);
    };
  }, [nonce]);
  if (!__ECHO_VERTICAL__) return null;
  const rules = JSON.stringify(speculationRules(__ECHO_VERTICAL__ as Vertical));
  return <script type="speculationrules" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: rules }} />;
}
