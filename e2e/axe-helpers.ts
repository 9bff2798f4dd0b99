// How every spec runs axe (WCAG 2.0/2.1/2.2 A and AA; a test keeps the serious and critical
// violations). One builder for all of them, for its cost (issue 30, `npm test`'s CPU):
// - axe runs in the page itself (`setLegacyMode`: `axe.run`). The default splits a run into a
//   partial run per frame and a final one in a blank page the builder opens for it: a second page
//   (and axe injected into it) for every run. The app has no frames, so both ways judge the same
//   DOM with the same rules; legacy mode only leaves cross-origin frames out.
// - only violations come back with every node (`resultTypes`): the passes (about 1,800 nodes on a
//   20-echo Home) were built into selectors and sent to the test for nothing; no test reads them.
// Measured on Home (20 echos), Chromium and the test worker together, 3 rounds at load ~15: a whole
// run 2.1–3.3 → 1.1–1.3 CPU-s, the theme rules' run 1.1–1.5 → 0.7–0.8; a contrast fault added to
// the page was found by both ways alike.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** An axe builder for this page (chain withTags / withRules / include as usual; not `options`, which would replace these). */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ["violations"] });
}
