// The "N new echos" pill (decision 016), loaded after hydration: it follows the feed's channel
// (live-socket.ts) and, when clicked, puts the new echos on top of the list and shows them.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Echo } from "../schema";
import { markDeleted, markEdited } from "./echo-store";
import { entryKey, followLive, type LiveState } from "./live-socket";

// the edits-only follower (live-edits.tsx) takes the socket code from here: see there
export { followLive, type LiveState };

export type LivePillProps = {
  /** the /api/live query: all=1, tag=<name> or scroll=<id> */
  live: string;
  /** the echos the list holds (new ones already there are not counted) */
  items: readonly Echo[];
  /** the list's own update (its pager's setItems): the new echos go on top */
  setItems: (update: (items: Echo[]) => Echo[]) => void;
};

export const newEchosLabel = (n: number) => `${n} new echo${n === 1 ? "" : "s"}`;

/** Test hook (e2e): poll at this interval instead of the default, when sockets are unavailable. */
declare global {
  interface Window {
    __ECHO_LIVE_POLL_MS?: number;
  }
}

/** Where the list's top lands when the reader is taken to the new echos: below the sticky top bar and pill. */
const LIST_TOP_MARGIN = 80;

export function LivePill({ live: query, items: known, setItems }: LivePillProps) {
  // the list is the pill's next sibling (echo-feed.tsx), when the feed has one
  const self = useRef<HTMLDivElement>(null);
  const listOf = () => self.current?.nextElementSibling as HTMLElement | null | undefined;
  const [pending, setPending] = useState<Echo[]>([]);
  const [state, setState] = useState<LiveState>("connecting");
  const knownIds = useRef(new Set<string>());
  knownIds.current = new Set(known.map(entryKey));
  useEffect(() => {
    /** every echo offered (shown since, or still waiting): a catch-up counts only newer ones */
    const offered = new Set<string>();
    const has = (id: string) => knownIds.current.has(id) || offered.has(id);
    return followLive({
      query,
      pollMs: window.__ECHO_LIVE_POLL_MS,
      has,
      onState: setState,
      // an edit shows on every copy at once: it is not news, so no pill. Every edit and deletion
      // comes on this one socket, the quotes' on a tag page or curation too (decision 016)
      onEdit: markEdited,
      onGone: (id) => {
        markDeleted(id);
        // a deleted account (its id): its repost entries in Following leave too, like its echos
        // (here, not in the store's test: home's first load has no byte to spare)
        const theirs = (e: Echo) => e.repost?.by._id === id;
        const without = (list: Echo[]) => (list.some(theirs) ? list.filter((e) => !theirs(e)) : list);
        setItems(without);
        setPending(without);
      },
      onEcho: (echo) => {
        const key = entryKey(echo);
        if (has(key)) return;
        offered.add(key);
        setPending((list) => [echo, ...list]);
      },
    });
  }, [query]);

  const fresh = pending.filter((e) => !knownIds.current.has(entryKey(e)));
  /** set by a click, applied once the new echos are in the list (same commit) */
  const shown = useRef<{ atTop: boolean } | null>(null);

  useLayoutEffect(() => {
    const done = shown.current;
    if (!done) return;
    shown.current = null;
    const list = listOf();
    if (!list) return;
    // scrolled down, the reader is taken up to the new echos (issue 29: they used to go in above,
    // out of sight, and the click seemed to do nothing); at the top they simply appear there
    if (!done.atTop) window.scrollTo(0, Math.max(0, list.getBoundingClientRect().top + window.scrollY - LIST_TOP_MARGIN));
    // the button is gone: keyboard and screen-reader users continue from the top of the list,
    // the first new echo next (the list element, not a row: the virtualiser may replace rows)
    list.tabIndex = -1;
    list.focus({ preventScroll: true });
  });

  const show = () => {
    const list = listOf();
    shown.current = { atTop: !list || list.getBoundingClientRect().top >= LIST_TOP_MARGIN - 1 };
    setItems((items) => [...fresh, ...items]);
    setPending([]);
  };

  return (
    <div ref={self} className="live-pill" role="status" data-testid="live-pill" data-state={state}>
      {fresh.length > 0 && (
        <button type="button" className="btn btn-primary btn-sm" onClick={show}>
          {newEchosLabel(fresh.length)}
        </button>
      )}
    </div>
  );
}
