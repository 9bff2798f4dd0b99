/**
 * Spec §2: a splash shows at start until the current-user check finishes and at least 1.5 s
 * have passed. The check happens on the server before the first byte, so the splash is in the
 * server HTML and a CSS animation holds it 1.5 s; the head script skips it after the first
 * screen of a tab (see docs/decisions/003-splash-and-theme.md).
 */
export function Splash() {
  return (
    <div id="splash" aria-hidden="true">
      <div className="splash-logo">Echo</div>
      <div className="splash-spinner" />
    </div>
  );
}
