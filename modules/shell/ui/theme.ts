import { useCallback, useSyncExternalStore } from "react";

export const THEME_KEY = "theme";
export type Theme = "light" | "dark";

/**
 * Runs in <head> before first paint (inline, CSP nonce): applies the stored theme so a
 * server-rendered page never flashes the wrong one; also skips the splash after the first
 * screen of a browser tab.
 */
export const HEAD_SCRIPT = `try{var t=localStorage.getItem("${THEME_KEY}");document.documentElement.dataset.theme=t==="dark"?"dark":"light";if(sessionStorage.getItem("echo.splashed"))document.documentElement.classList.add("no-splash");else sessionStorage.setItem("echo.splashed","1")}catch(e){}`;

const listeners = new Set<() => void>();

function readTheme(): Theme {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    readTheme,
    () => "light" as Theme,
  );
  const setTheme = useCallback((next: Theme) => {
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      // storage may be unavailable (private mode); the theme still applies for this page
    }
    document.documentElement.dataset.theme = next;
    for (const cb of listeners) cb();
  }, []);
  return [theme, setTheme];
}
