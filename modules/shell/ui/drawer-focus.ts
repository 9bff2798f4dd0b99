import { useEffect, useRef } from "react";

/** The drawer only exists on narrow screens; wider, the sidebar is always shown and never modal. */
const NARROW = "(max-width: 760px)";

/**
 * The narrow-screen sidebar drawer as a keyboard user needs it: opening moves focus to its first
 * link, Escape closes it and focus goes back to the toggle, as does any close while focus was
 * inside (a link, the scrim); the page behind is inert meanwhile (set by the shell), so Tab
 * stays in the drawer and the top bar. Widening the window closes it.
 */
export function useDrawerFocus(open: boolean, close: () => void) {
  const toggle = useRef<HTMLButtonElement>(null);
  const sidebar = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!open) return;
    sidebar.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      close();
      toggle.current?.focus();
    };
    const wide = window.matchMedia(NARROW);
    const onWiden = () => !wide.matches && close();
    document.addEventListener("keydown", onKeyDown);
    wide.addEventListener("change", onWiden);
    const drawer = sidebar.current;
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      wide.removeEventListener("change", onWiden);
      // closing with focus inside the drawer (or lost with it): back to the toggle
      const focus = document.activeElement;
      if (wide.matches && (!focus || focus === document.body || drawer?.contains(focus))) toggle.current?.focus();
    };
  }, [open]);

  return { toggle, sidebar };
}
