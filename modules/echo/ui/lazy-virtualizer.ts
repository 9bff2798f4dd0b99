import { useEffect, useLayoutEffect, useReducer, useRef, useState, type RefObject } from "react";
import { flushSync } from "react-dom";
import type { VirtualItem, Virtualizer, VirtualizerOptions } from "@tanstack/react-virtual";
import { cachedImport } from "../../shared/index";

type Core = typeof import("@tanstack/react-virtual");
export type WindowVirtualizer = Virtualizer<Window, Element>;
type Options = Pick<VirtualizerOptions<Window, Element>, "count" | "estimateSize" | "overscan" | "getItemKey"> & {
  /** the element whose direct children are the rows (each with data-index) */
  listRef: RefObject<HTMLElement | null>;
  /** virtualise from now on (once true, it stays on) */
  active: boolean;
};
type Start = { sizes: VirtualItem[]; scrollMargin: number };

const loadCore = cachedImport<Core>(() => import("@tanstack/react-virtual"));

/**
 * @tanstack/react-virtual's useWindowVirtualizer, with the library (~10 KB gzipped, most of the
 * feed's JS) imported after hydration instead of with the page (issue 6's JS budget), and
 * switched on only once `active` says the list has grown (a server-rendered page of 20 rows
 * gains nothing from it). Until then `virtualizer` is null and the caller renders its rows in
 * normal flow, as the server did. On switching on, the rows already in the DOM are measured
 * (and the list's offset in the page), so the virtualiser starts from the real layout rather
 * than estimates: the rows on screen stay mounted and where they are.
 * Mirrors the library's own hook: one Virtualizer, setOptions on every render, _didMount and
 * _willUpdate in layout effects, a synchronous re-render on scroll but not from a measuring ref.
 */
export function useLazyWindowVirtualizer({ listRef, active, ...options }: Options): { virtualizer: WindowVirtualizer | null; scrollMargin: number } {
  const [lib, setLib] = useState<Core | null>(null);
  const [start, setStart] = useState<Start | null>(null);
  const rerender = useReducer((n: number) => n + 1, 0)[1];
  const instanceRef = useRef<WindowVirtualizer | null>(null);
  const measuring = useRef(false);

  useEffect(() => {
    let live = true;
    loadCore().then(
      (m) => live && setLib(m),
      // offline: the list just stays unvirtualised
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);

  // before paint, in the commit that made the list grow
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!lib || !active || start || !list) return;
    const rows = list.querySelectorAll<HTMLElement>(":scope > [data-index]");
    const sizes = Array.from(rows, (row) => {
      const index = Number(row.dataset.index);
      // rounded, as the virtualiser measures
      const size = Math.round(row.getBoundingClientRect().height);
      return { key: options.getItemKey?.(index) ?? index, index, size, start: 0, end: size, lane: 0 };
    });
    setStart({ sizes, scrollMargin: list.getBoundingClientRect().top + window.scrollY });
  });

  const resolved = lib && start && {
    ...options,
    scrollMargin: start.scrollMargin,
    getScrollElement: () => window,
    observeElementRect: lib.observeWindowRect,
    observeElementOffset: lib.observeWindowOffset,
    scrollToFn: lib.windowScroll,
    initialOffset: () => window.scrollY,
    initialMeasurementsCache: start.sizes,
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
  return { virtualizer: instance, scrollMargin: start?.scrollMargin ?? 0 };
}
