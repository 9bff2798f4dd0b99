import type { MouseEvent } from "react";
import type { NavigateFunction } from "react-router";

/**
 * What React Router's <Link> does on a click, for plain `<a href>`s inside `event.currentTarget`:
 * a plain left click on a same-origin link becomes a client-side navigation (navigate() turns a
 * path of another vertical into a document navigation); a modified or middle click, a link with a
 * target or download, and other origins stay the browser's. A link to the current location
 * replaces it, as <Link> does.
 *
 * Why: lists render many links (each echo card has its author, tags, links in the text and Open),
 * and every <Link> costs several hooks and path resolutions in each server render — about a tenth
 * of home's server time (profiled, issue 14). One handler on the card does the same work only
 * when a link is clicked.
 */
export function followInAppLink(event: MouseEvent<Element>, navigate: NavigateFunction): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return false;
  const link = event.target instanceof Element ? event.target.closest("a") : null;
  if (!link || !event.currentTarget.contains(link)) return false;
  if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return false;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin) return false;
  event.preventDefault();
  const to = url.pathname + url.search + url.hash;
  const here = window.location.pathname + window.location.search + window.location.hash;
  void navigate(to, { replace: to === here });
  return true;
}
