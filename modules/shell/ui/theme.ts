import { useCallback, useSyncExternalStore } from "react";

export const THEME_KEY = "theme";
export type Theme = "light" | "dark";

/**
 * Runs in <head> before first paint (inline, CSP nonce): applies the stored theme, or with none
 * stored the OS's (prefers-color-scheme), so a server-rendered page never flashes the wrong one;
 * re-applies it when another tab changes it (the storage event fires in the other tabs only) and
 * when a prerendered page is shown (the theme may have changed since it was rendered ahead, on the
 * page that is now going away); also skips the splash after the first screen of a browser tab.
 */
export const HEAD_SCRIPT = `try{var d=document.documentElement,m=matchMedia("(prefers-color-scheme: dark)"),a=function(){var t=localStorage.getItem("${THEME_KEY}");d.dataset.theme=t==="dark"||(t!=="light"&&m.matches)?"dark":"light"};a();addEventListener("storage",function(e){if(e.key==="${THEME_KEY}"||e.key===null)a()});document.addEventListener("prerenderingchange",a);if(sessionStorage.getItem("echo.splashed"))d.classList.add("no-splash");else sessionStorage.setItem("echo.splashed","1")}catch(e){}`;

const listeners = new Set<() => void>();

function readTheme(): Theme {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      // another tab's change: the head script's own storage listener (added first) has applied it
      window.addEventListener("storage", cb);
      // a prerendered page being shown: likewise (the head script re-read the stored theme)
      document.addEventListener("prerenderingchange", cb);
      return () => {
        listeners.delete(cb);
        window.removeEventListener("storage", cb);
        document.removeEventListener("prerenderingchange", cb);
      };
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
