import { useRef, useState, type ReactNode } from "react";
import { ApiError, OFFLINE_HINT, lazyComponent, usePagedList, useScrollMore } from "../../shared/index";

const LOAD_FAILED = "Couldn't load more echos.";
import type { Echo, EchoPage } from "../schema";
import { EchoCard } from "./echo-card";
import { useFeedMemory } from "./feed-memory";
import { useEchoStore } from "./echo-store";
import { useLazyWindowVirtualizer } from "./lazy-virtualizer";

/** A row's identity: a repost in Following is its own row beside the echo itself (decision 027). */
const rowKey = (e: Echo) => e.repost?._id ?? e._id;

/** Loaded after hydration, out of the page's initial JavaScript (decision 016). */
const LivePill = lazyComponent(() => import("./live-pill").then((m) => m.LivePill));

export type FetchPage = (page: number, cursor: string | null) => Promise<EchoPage>;

/** A feed page stops at its read budget, so a sparse feed can answer short or empty pages while
 * more may come (docs/decisions/010-feed-budget-for-every-feed.md). The list fetches on by
 * itself for this many short pages in a row, then asks before looking further. */
const AUTO_SHORT_PAGES = 3;
const isShort = (p: EchoPage) => p.pagination.hasMore && p.echos.length < p.pagination.limit;
/** A feed whose index is still being built (decision 020): its short pages say so. */
const building = (p: EchoPage) => (p as { feedIndex?: string }).feedIndex === "building";

type Props = {
  initial: EchoPage;
  fetchPage: FetchPage;
  viewerId: string;
  /** show 5 skeleton rows instead of the list (first load of new filters) */
  loading?: boolean;
  empty: ReactNode;
  /** names this feed among others on the same screen: Back to it restores its pages and scroll */
  restoreKey?: string;
  /** the /api/live query of a feed whose new echos go on top: a "N new echos" pill follows it */
  live?: string;
};

export function EchoSkeletons({ count }: { count: number }) {
  return (
    <div aria-hidden="true" data-testid="skeletons">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="echo-row">
          <div className="echo-card skeleton">
            <div className="sk-line sk-short" />
            <div className="sk-line" />
            <div className="sk-line sk-mid" />
          </div>
        </div>
      ))}
    </div>
  );
}

/**
 * The echo list of home, tag and scroll pages: server-rendered first page, then a window-
 * virtualised list (only the rows near the viewport are in the DOM, so 10,000 loaded echos
 * stay smooth) that loads the next page 100px before the end (spec §2). The virtualiser is
 * loaded after hydration and switched on once a next page arrives (lazy-virtualizer.ts); until
 * then the rows flow as the server sent them.
 */
export function EchoFeed({ initial, fetchPage, viewerId, loading, empty, restoreKey, live }: Props) {
  const [shortRun, setShortRun] = useState(isShort(initial) ? 1 : 0);
  const [indexing, setIndexing] = useState(building(initial));
  // the client's one pager (paged-list.ts): by cursor, a read while one is on its way does nothing
  const list = usePagedList<Echo>({
    first: { items: initial.echos, at: initial.pagination },
    load: async (at) => {
      const next = await fetchPage((at?.page ?? 0) + 1, at?.nextCursor ?? null);
      setShortRun((run) => (isShort(next) ? run + 1 : 0));
      setIndexing(building(next));
      return { items: next.echos, at: next.pagination };
    },
    key: rowKey,
  });
  const { items, hasMore } = list;
  const waiting = hasMore && shortRun >= AUTO_SHORT_PAGES;
  const loadingMore = list.state === "loading";
  // a next page that failed: said under the list with a Retry; no automatic retries meanwhile
  const failure = list.state === "failed" && (list.error instanceof ApiError && list.error.status === 0 ? `${LOAD_FAILED} ${OFFLINE_HINT}` : LOAD_FAILED);
  const listRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useScrollMore(list, waiting);
  const store = useEchoStore();
  const visible = items.filter((e) => !store.isDeleted(e));

  const { virtual, host } = useLazyWindowVirtualizer({
    listRef,
    // virtualise once the list grows past the server-rendered page
    active: visible.length > initial.echos.length,
    count: visible.length,
    estimateSize: () => 180,
    overscan: 6,
    getItemKey: (index) => (visible[index] ? rowKey(visible[index]) : index),
  });

  useFeedMemory(
    restoreKey,
    () => ({ items, page: list.at?.page ?? 1, cursor: list.at?.nextCursor ?? null, hasMore }),
    (snapshot) => list.reset({ items: snapshot.items, at: { page: snapshot.page, nextCursor: snapshot.cursor, hasMore: snapshot.hasMore } }),
  );

  if (loading) return <EchoSkeletons count={5} />;
  // rendered just before the list, which it finds as its next sibling
  const pill = live && <LivePill live={live} items={items} setItems={list.setItems} />;
  if (visible.length === 0 && !hasMore) return <>{pill}{empty}</>;

  // Rows flow normally between two spacers: the server renders the first page the same way,
  // so hydration swaps nothing and the virtualiser, once on, keeps only nearby rows mounted.
  const rows = virtual
    ? virtual.virtualizer.getVirtualItems()
    : visible.map((_, index) => ({ index, key: rowKey(visible[index]!), start: 0, end: 0 }));
  const first = rows[0];
  const last = rows[rows.length - 1];
  const padTop = virtual && first ? first.start - virtual.scrollMargin : 0;
  const padBottom = virtual && last ? virtual.virtualizer.getTotalSize() - (last.end - virtual.scrollMargin) : 0;

  return (
    <div className={live ? "echo-feed live" : "echo-feed"}>
      {pill}
      <div ref={listRef} style={{ paddingTop: padTop, paddingBottom: Math.max(0, padBottom) }} data-testid="echo-list">
        {rows.map((row) => {
          const echo = visible[row.index];
          if (!echo) return null;
          return (
            <div key={row.key} data-index={row.index} ref={virtual?.measureRow} className="echo-row">
              <EchoCard echo={echo} viewerId={viewerId} />
            </div>
          );
        })}
      </div>
      {host}
      <div ref={sentinelRef} className="feed-sentinel" />
      {loadingMore && <EchoSkeletons count={3} />}
      {failure && (
        <div className="feed-failure" role="alert">
          <p>{failure}</p>
          <button type="button" className="btn" onClick={() => void list.more()}>
            Retry
          </button>
        </div>
      )}
      {waiting && !loadingMore && !failure && (
        <p className="feed-end" role="status">
          {indexing ? "Building this feed… matching echos fill in as it is indexed." : "Still looking for matching echos…"}{" "}
          <button
            type="button"
            className="btn"
            onClick={() => {
              setShortRun(0);
              void list.more();
            }}
          >
            Load more
          </button>
        </p>
      )}
      {!hasMore && visible.length > 0 && <p className="feed-end">You've reached the end</p>}
    </div>
  );
}
