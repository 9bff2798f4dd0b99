import { useLayoutEffect, useRef, useState } from "react";
import { useLocation, useNavigationType } from "react-router";
import type { Echo } from "../schema";

/** What a list had loaded, and where the window was, when the user left it; `view` is whatever
 * else the screen chose (the profile's tab). */
export type ListSnapshot<T> = { items: T[]; page: number; cursor: string | null; hasMore: boolean; scrollY: number; view?: string };
export type FeedSnapshot = ListSnapshot<Echo>;

// a long session must not fill sessionStorage: the rows past this are fetched again on scroll
const MAX_ITEMS = 300;

/** Read once: a reload afterwards shows the server's fresh page, not this snapshot again. */
function take<T>(key: string): ListSnapshot<T> | null {
  try {
    const raw = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
    return raw ? (JSON.parse(raw) as ListSnapshot<T>) : null;
  } catch {
    return null;
  }
}

function write<T>(key: string, snapshot: ListSnapshot<T>) {
  const trimmed = snapshot.items.length > MAX_ITEMS ? { ...snapshot, items: snapshot.items.slice(0, MAX_ITEMS), hasMore: true } : snapshot;
  // a trimmed list continues from its last row: the cursor of a trimmed list is not known, so
  // page numbers (which every list endpoint accepts) take over
  if (trimmed !== snapshot) trimmed.cursor = null;
  try {
    sessionStorage.setItem(key, JSON.stringify(trimmed));
  } catch {
    // storage full or unavailable: Back then shows the first page, as before
  }
}

/** The history entry this document was loaded at, and how (a reload must show fresh data; Back
 * into a document — crossing verticals, decision 011 — restores like Back inside the app). */
const documentEntry =
  typeof window === "undefined"
    ? null
    : {
        key: (window.history.state as { key?: string } | null)?.key ?? "default",
        backForward: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined)?.type === "back_forward",
        // set once a list is left inside the app: a later POP to the first entry is in-app Back
        leftInApp: false,
      };

/** Whether arriving at this history entry should bring its list back. */
function arrivedByHistory(locationKey: string, navigationType: string): boolean {
  if (navigationType !== "POP") return false;
  // the document's own first entry: only a back/forward load restores (not a reload or a new load)
  if (documentEntry && locationKey === documentEntry.key && !documentEntry.leftInApp) return documentEntry.backForward;
  return true;
}

/**
 * Back (or forward) to a list (a feed, a profile tab) brings back the pages it had loaded and the scroll position, per
 * history entry (React Router's location key) and feed (`restoreKey`). The snapshot is saved when
 * the feed unmounts (leaving it in the app) or the document is left (a link into another
 * vertical), and taken (removed) when restored on a Back/Forward arrival,
 * after the first layout so a server-rendered page hydrates as rendered. A reload or a page
 * loaded afresh shows the server's current first page. <ScrollRestoration> alone cannot do this:
 * the document is only one page tall until the pages are back.
 */
export function useFeedMemory<T = Echo>(
  restoreKey: string | undefined,
  current: () => Omit<ListSnapshot<T>, "scrollY">,
  restore: (s: ListSnapshot<T>) => void,
) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const key = restoreKey ? `echo.feed:${location.key}:${restoreKey}` : null;
  const latest = useRef(current);
  latest.current = current;
  const [scrollTarget, setScrollTarget] = useState<number | null>(null);

  useLayoutEffect(() => {
    if (!key || !arrivedByHistory(location.key, navigationType)) return;
    const snapshot = take<T>(key);
    if (!snapshot) return;
    restore(snapshot);
    setScrollTarget(snapshot.scrollY);
    // only on arrival at this history entry (restore and navigationType are read then)
  }, [key]);

  // once the restored rows are in the document it is tall enough to scroll back
  useLayoutEffect(() => {
    if (scrollTarget === null) return;
    window.scrollTo(0, scrollTarget);
    setScrollTarget(null);
  }, [scrollTarget]);

  // a layout cleanup: on leaving it runs before the next screen's layout scrolls to its top
  useLayoutEffect(() => {
    if (!key) return;
    const save = () => write(key, { ...latest.current(), scrollY: window.scrollY });
    window.addEventListener("pagehide", save);
    return () => {
      window.removeEventListener("pagehide", save);
      save();
      if (documentEntry) documentEntry.leftInApp = true;
    };
  }, [key]);
}
