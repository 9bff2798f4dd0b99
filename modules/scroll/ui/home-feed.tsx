import { useCallback } from "react";
import { Link } from "react-router";
import { EchoExtensionsProvider, EchoFeed, PostedEcho, type EchoPage } from "../../echo/index";
import { api } from "../../shared/index";
import { EmptyState } from "../../shell/index";
import type { Scroll } from "../schema";
import { ALL_ECHOS, FOLLOWING, useChooseFeed } from "./selection";
import { whyInFeed } from "./why-dialog-lazy";

/** The empty Following timeline (docs/product-notes.md): why it is empty and where to go next. */
export const FOLLOWING_EMPTY = {
  title: "Nothing from the people you follow yet",
  detail: "When people you follow post, their echos appear here, newest first. Find people to follow in Search.",
};

/**
 * Home (spec §2): with no scrolls, 'No Scrolls' and two ways forward; with a feed selected,
 * its name, description and echos; with Following selected, the viewer's own echos and those of
 * the people the viewer follows; with none selected, all echos. Each says which list it is.
 */
export function HomeFeed({ scrolls, selected, selectedId, page, viewerId, live }: {
  scrolls: Scroll[];
  selected: Scroll | null;
  selectedId: string | null;
  page: EchoPage;
  viewerId: string;
  /** the feed's /api/live query (homeLiveQuery, worked out by the loader: home's JS stays lean) */
  live?: string;
}) {
  const choose = useChooseFeed();
  const following = !selected && selectedId === FOLLOWING;
  const path = selected ? `/scroll/${selected._id}/echos` : following ? "/echo/following" : "/echo/all";
  const fetchPage = useCallback(
    (n: number, cursor: string | null) => {
      const q = new URLSearchParams({ page: String(n), limit: "20" });
      if (cursor) q.set("cursor", cursor);
      return api<EchoPage>(`${path}?${q}`, { fallback: "Failed to fetch echos" });
    },
    [path],
  );
  return (
    <div className="page">
      {scrolls.length === 0 && (
        <div className="card no-scrolls">
          <EmptyState title="No Scrolls" detail="Create your first scroll to get started">
            <Link to="/scroll/new" className="btn btn-primary">
              Create Scroll
            </Link>
            <Link to="/community" className="btn">
              Browse Community Scrolls
            </Link>
          </EmptyState>
        </div>
      )}
      {selected ? (
        <header className="feed-header">
          <h1 className="page-title">
            <Link to={`/scroll/${selected._id}`}>
              <bdi>{selected.name}</bdi>
            </Link>
          </h1>
          {selected.description && (
            <p className="muted" dir="auto">
              {selected.description}
            </p>
          )}
          {/* the unfiltered home stays one step away once a feed is selected */}
          <button type="button" className="btn btn-sm" onClick={() => choose(ALL_ECHOS)}>
            Show All Echos
          </button>
        </header>
      ) : following ? (
        <header className="feed-header">
          <h1 className="page-title">Following</h1>
          {/* which list Home shows, said on the page (the picker may be in a closed drawer) */}
          <p className="muted">Your echos and those of the people you follow, newest first.</p>
          <button type="button" className="btn btn-sm" onClick={() => choose(ALL_ECHOS)}>
            Show All Echos
          </button>
        </header>
      ) : (
        <header className="feed-header">
          <h1 className="page-title">All Echos</h1>
          <p className="muted">Everyone's echos, newest first.</p>
        </header>
      )}
      <PostedEcho feedIds={page.echos.map((e) => e._id)} viewerId={viewerId} />
      <EchoExtensionsProvider value={selected?.type === "feed" ? { explain: whyInFeed(selected) } : {}}>
      <EchoFeed
        key={selected?._id ?? (following ? FOLLOWING : "all")}
        restoreKey={`home:${path}`}
        live={live}
        initial={page}
        fetchPage={fetchPage}
        viewerId={viewerId}
        empty={
          selected ? (
            <EmptyState title="No echos match your filters" detail="Try adjusting your scroll settings or check back later" />
          ) : following ? (
            <EmptyState {...FOLLOWING_EMPTY}>
              <Link to="/search" className="btn">
                Find People
              </Link>
            </EmptyState>
          ) : (
            <EmptyState title="No echoes yet" detail="Be the first to share your thoughts!" />
          )
        }
      />
      </EchoExtensionsProvider>
    </div>
  );
}
