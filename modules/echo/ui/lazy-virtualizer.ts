import { useEffect, useLayoutEffect, useReducer, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { VirtualItem, Virtualizer, VirtualizerOptions } from "@tanstack/react-virtual";

type Core = typeof import("@tanstack/react-virtual");
export type WindowVirtualizer = Virtualizer<Window, Element>;
type Options = Pick<VirtualizerOptions<Window, Element>, "count" | "estimateSize" | "overscan" | "scrollMargin" | "getItemKey">;

let core: Promise<Core> | null = null;
const loadCore = () => {
  if (!core) {
    core = import("@tanstack/react-virtual");
    core.catch(() => (core = null));
  }
  return core;
};

/**
 * @tanstack/react-virtual's useWindowVirtualizer, with the library (~10 KB gzipped, most of the
 * feed's JS) imported after hydration instead of with the page (issue 6's JS budget). Returns
 * null until it has loaded: the caller renders its rows in normal flow meanwhile, which is also
 * what the server rendered, so the rows stay mounted when virtualisation starts. `measure` gives
 * the sizes of the rows already in the DOM at that moment, so the virtualiser starts from the
 * real layout rather than estimates and keeps the rows on screen where they are. Mirrors the
 * library's own hook (one Virtualizer, setOptions on every render, _didMount/_willUpdate in
 * layout effects, a synchronous re-render on scroll but not from inside a measuring ref).
 */
export function useLazyWindowVirtualizer(
  options: Options,
  measure: () => Array<{ key: string; size: number }>,
): WindowVirtualizer | null {
  const [loaded, setLoaded] = useState<{ lib: Core; sizes: VirtualItem[] } | null>(null);
  const rerender = useReducer((n: number) => n + 1, 0)[1];
  const instanceRef = useRef<WindowVirtualizer | null>(null);
  const measuring = useRef(false);
  const measureRef = useRef(measure);
  measureRef.current = measure;

  useEffect(() => {
    let live = true;
    loadCore().then(
      (lib) => live && setLoaded({ lib, sizes: measureRef.current().map(({ key, size }, index) => ({ key, size, index, start: 0, end: size, lane: 0 })) }),
      // offline: the list just stays unvirtualised
      () => {},
    );
    return () => {
      live = false;
    };
  }, []); // once, after hydration

  const lib = loaded?.lib;

  const resolved = loaded && lib && {
    ...options,
    getScrollElement: () => window,
    observeElementRect: lib.observeWindowRect,
    observeElementOffset: lib.observeWindowOffset,
    scrollToFn: lib.windowScroll,
    initialOffset: () => window.scrollY,
    initialMeasurementsCache: loaded.sizes,
    // the first virtual render already knows the viewport (else it keeps only the overscan rows
    // for one commit, remounting the cards on screen)
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    onChange: (_: WindowVirtualizer, sync: boolean) => (sync && !measuring.current ? flushSync(rerender) : rerender()),
  };
  if (lib && resolved && !instanceRef.current) {
    const v = new lib.Virtualizer<Window, Element>(resolved);
    const measure = v.measureElement;
    v.measureElement = (node) => {
      measuring.current = true;
      try {
        measure(node);
      } finally {
        measuring.current = false;
      }
    };
    instanceRef.current = v;
  }
  const instance = instanceRef.current;
  if (instance && resolved) instance.setOptions(resolved);

  useLayoutEffect(() => instance?._didMount(), [instance]);
  useLayoutEffect(() => instance?._willUpdate());
  return instance;
}
