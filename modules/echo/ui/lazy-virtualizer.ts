import { createElement, useEffect, useReducer, useState, type ReactNode } from "react";
import { cachedImport } from "../../shared/index";
import type { HostProps, ListOptions, Virtual } from "./window-virtualizer";

type Host = typeof import("./window-virtualizer");
type Options = ListOptions &
  Pick<HostProps, "listRef"> & {
    /** virtualise from now on (once true, it stays on) */
    active: boolean;
  };

const loadHost = cachedImport<Host>(() => import("./window-virtualizer"));

/**
 * @tanstack/react-virtual's useWindowVirtualizer, with the library (~10 KB gzipped, most of the
 * feed's JS) imported after hydration instead of with the page (issue 6's JS budget), and
 * switched on only once `active` says the list has grown (a server-rendered page of 20 rows
 * gains nothing from it). Until then `virtual` is null and the caller renders its rows in normal
 * flow, as the server did. The library's hook runs in a component of the lazily loaded chunk
 * (window-virtualizer.tsx), which the caller renders as `host`; only public APIs are used.
 */
export function useLazyWindowVirtualizer({ active, ...options }: Options): { virtual: Virtual | null; host: ReactNode } {
  const [lib, setLib] = useState<Host | null>(null);
  const [virtual, setVirtual] = useState<Virtual | null>(null);
  const [on, setOn] = useState(false);
  if (active && !on) setOn(true);
  const rerender = useReducer((n: number) => n + 1, 0)[1];

  useEffect(() => {
    let live = true;
    loadHost().then(
      (m) => live && setLib(m),
      // offline: the list just stays unvirtualised
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);

  const host = lib && on ? createElement(lib.WindowVirtualizerHost, { ...options, onReady: setVirtual, rerender, live: virtual !== null }) : null;
  return { virtual, host };
}
