// The feed's virtualiser, loaded after hydration (lazy-virtualizer.ts): @tanstack/react-virtual's
// own useWindowVirtualizer hook, which drives the Virtualizer through its lifecycle, inside a
// component that renders nothing. The feed renders the rows itself, from the virtualiser this
// component hands it, so switching on keeps the rows already on screen mounted.
import { useLayoutEffect, useRef, useState, type RefObject } from "react";
import { flushSync } from "react-dom";
import { useWindowVirtualizer, type VirtualItem, type Virtualizer, type VirtualizerOptions } from "@tanstack/react-virtual";

export type WindowVirtualizer = Virtualizer<Window, Element>;

export type ListOptions = Pick<VirtualizerOptions<Window, Element>, "count" | "estimateSize" | "overscan" | "getItemKey">;

/** What the feed renders from: the virtualiser, the list's offset in the page, the rows' ref. */
export type Virtual = { virtualizer: WindowVirtualizer; scrollMargin: number; measureRow: (node: Element | null) => void };

export type HostProps = ListOptions & {
  /** the element whose direct children are the rows (each with data-index) */
  listRef: RefObject<HTMLElement | null>;
  /** the virtualiser is ready: the feed renders from it from now on */
  onReady: (virtual: Virtual) => void;
  /** the feed has rendered its rows from the virtualiser (after onReady) */
  live: boolean;
  /** re-render the feed (the range or the sizes changed) */
  rerender: () => void;
};

type Start = { sizes: VirtualItem[]; scrollMargin: number };

/**
 * On switching on, the rows already in the DOM are measured (and the list's offset in the page)
 * before paint, so the virtualiser starts from the real layout rather than estimates: the rows on
 * screen stay mounted and where they are.
 */
export function WindowVirtualizerHost({ listRef, ...props }: HostProps) {
  const [start, setStart] = useState<Start | null>(null);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const rows = list.querySelectorAll<HTMLElement>(":scope > [data-index]");
    const sizes = Array.from(rows, (row) => {
      const index = Number(row.dataset.index);
      // rounded, as the virtualiser measures
      const size = Math.round(row.getBoundingClientRect().height);
      return { key: props.getItemKey?.(index) ?? index, index, size, start: 0, end: size, lane: 0 };
    });
    setStart({ sizes, scrollMargin: list.getBoundingClientRect().top + window.scrollY });
  }, []); // once, on switching on
  return start ? <Measured start={start} {...props} /> : null;
}

function Measured({ start, onReady, rerender, live, ...options }: Omit<HostProps, "listRef"> & { start: Start }) {
  const measuring = useRef(false);
  const virtualizer = useWindowVirtualizer({
    ...options,
    // The window is attached only once the feed renders its rows from the virtualiser, so their
    // refs measure them before it listens and scrolls: the order of the library's own hook,
    // where the rows and the virtualiser commit together.
    getScrollElement: () => (live ? window : null),
    scrollMargin: start.scrollMargin,
    initialMeasurementsCache: start.sizes,
    // the first virtual render already knows the viewport (else it keeps only the overscan rows
    // for one commit, remounting the cards on screen)
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    // this component renders nothing: the feed is what re-renders, synchronously on scroll
    // (as the library's hook does for its own component) but not from a measuring ref
    useFlushSync: false,
    onChange: (_, sync) => (sync && !measuring.current ? flushSync(rerender) : rerender()),
  });
  useLayoutEffect(() => {
    const measureRow = (node: Element | null) => {
      measuring.current = true;
      try {
        virtualizer.measureElement(node);
      } finally {
        measuring.current = false;
      }
    };
    onReady({ virtualizer, scrollMargin: start.scrollMargin, measureRow });
  }, [virtualizer]);
  // The feed read the range in its render, before this one gave the virtualiser a new count (a
  // page loaded, an echo deleted): render it again before paint.
  const counted = useRef(options.count);
  useLayoutEffect(() => {
    if (counted.current === options.count) return;
    counted.current = options.count;
    rerender();
  }, [options.count]);
  return null;
}
