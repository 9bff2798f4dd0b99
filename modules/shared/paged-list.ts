// The one client pager (issue 30): every list that pages in the browser — feeds, profile tabs,
// notifications, replies, the echo page's disclosures, settings' lists, moderation — holds its
// rows with usePagedList and ends with <LoadMore> (the echo feed, which pages as it scrolls, keeps
// its own footer: echo-feed.tsx). Same behaviour everywhere: by cursor (or page
// number where a list has no cursor), a click while a page is on its way does nothing (spec: "Load
// more does nothing if loading or no more pages"), the rows read are announced, the focus stays on
// the button (or goes to the first new row when the button leaves), and a failure is said where
// it happened (an alert with Retry) and in a toast (docs/architecture.md, "Paging").
import { useEffect, useRef, useState, type RefObject } from "react";

/** Where a list stands: a list answer's own pagination (the page read, the next page's cursor,
 * whether more follow; a list that gives only a cursor has more while it has one). */
export type PageAt = { page?: number; nextCursor?: string | null; hasMore?: boolean };
export type ListPage<T> = { items: T[]; at: PageAt };

const hasMore = (at: PageAt | null) => !!at && (at.hasMore ?? !!at.nextCursor);

/** The query of the page after `at`: its number, its size (a list answer's pagination carries
 * `limit`) and its cursor, so that page numbers and cursors agree. */
export const nextPageQuery = (at: (PageAt & { limit?: number }) | null) =>
  `page=${(at?.page ?? 0) + 1}${at?.limit ? `&limit=${at.limit}` : ""}${at?.nextCursor ? `&cursor=${encodeURIComponent(at.nextCursor)}` : ""}`;

export type PagedList<T> = {
  items: T[];
  /** null until the first page is read */
  at: PageAt | null;
  /** more pages follow */
  hasMore: boolean;
  state: "idle" | "loading" | "failed";
  /** what the last read threw (LoadMore says it) */
  error: unknown;
  /** reads the next page (the first, before any); Retry is the same call */
  more: () => Promise<void>;
  /** a fresh first page (Back's memory, a revalidated loader) replaces the rows */
  reset: (page: ListPage<T>) => void;
  setItems: (update: (items: T[]) => T[]) => void;
};

type Held<T> = Pick<PagedList<T>, "items" | "at" | "state" | "error">;

/**
 * The rows of a paged list and the reading of its next page: by its cursor, else its number; a
 * call while a page is on its way or after the last does nothing; rows already shown are not
 * added twice. What to show (the button, the failure) is LoadMore's, loaded apart on a feed.
 */
export function usePagedList<T>({ first, load, key }: {
  /** the server's first page; null: the list reads it itself when mounted */
  first: ListPage<T> | null;
  load: (after: PageAt | null) => Promise<ListPage<T>>;
  /** a row's identity */
  key: (item: T) => string;
}): PagedList<T> {
  const [list, setList] = useState<Held<T>>({ items: [], at: null, ...first, state: first ? "idle" : "loading", error: null });
  const busy = useRef(false);
  const latest = useRef(list);
  latest.current = list;

  async function more() {
    const { at } = latest.current;
    if (busy.current || (at && !hasMore(at))) return;
    busy.current = true;
    setList((prev) => ({ ...prev, state: "loading" }));
    try {
      const page = await load(at);
      setList((prev) => {
        const shown = at ? prev.items : [];
        const seen = new Set(shown.map(key));
        return { items: [...shown, ...page.items.filter((item) => !seen.has(key(item)))], at: page.at, state: "idle", error: null };
      });
    } catch (error) {
      setList((prev) => ({ ...prev, state: "failed", error }));
    }
    busy.current = false;
  }

  // a list without a server-rendered page reads its first when it opens
  useEffect(() => {
    if (!first) void more();
  }, []);

  return {
    ...list,
    hasMore: hasMore(list.at),
    more,
    reset: (page) => setList({ ...page, state: "idle", error: null }),
    setItems: (update) => setList((prev) => ({ ...prev, items: update(prev.items) })),
  };
}

/**
 * A list that pages as it scrolls (a feed, spec §2): the next page is read when the element this
 * ref is on comes within 100px of the viewport, unless `paused` (a failure waits for Retry, a
 * sparse feed for its button). Re-armed after every page, so a short page that leaves the element
 * in view reads on. In the first load (not in LoadMore's chunk): the feed pages before anything
 * else has loaded.
 */
export function useScrollMore<T>(list: PagedList<T>, paused: unknown): RefObject<HTMLDivElement | null> {
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !list.hasMore || list.state === "failed" || paused) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void list.more(), {
      rootMargin: "0px 0px 100px 0px",
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [list.at, list.state, paused]);
  return sentinel;
}
