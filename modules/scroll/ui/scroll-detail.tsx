import { useCallback, useState } from "react";
import { Link, useNavigate, useNavigation, useRevalidator } from "react-router";
import { EchoExtensionsProvider, EchoFeed, type Echo, type EchoPage } from "../../echo/index";
import { api } from "../../shared/index";
import { EmptyState } from "../../shell/index";
import type { Scroll } from "../schema";
import { echos, followers, forks } from "./counts";
import { deleteScroll, forkScroll, removeFromScroll } from "./scroll-actions";
import { FollowScrollButton } from "./follow-button";
import { whyInFeed } from "./why-dialog-lazy";
import { liveQuery } from "./live-query";
import { describeRule } from "./rule-words";

export type ScrollView =
  | { state: "ok"; scroll: Scroll; page: EchoPage }
  | { state: "missing" }
  | { state: "private" };

/** /scroll/{id} (spec §2). */
export function ScrollDetail({ view, viewerId }: { view: ScrollView; viewerId: string }) {
  const navigation = useNavigation();
  if (navigation.state === "loading" && navigation.location?.pathname.startsWith("/scroll/")) {
    return <p className="page muted">Loading scroll...</p>;
  }
  if (view.state === "missing") {
    return (
      <div className="page">
        <EmptyState title="Scroll not found">
          <Link to="/scrolls" className="btn btn-primary">
            Back to Scrolls
          </Link>
        </EmptyState>
      </div>
    );
  }
  if (view.state === "private") {
    return (
      <div className="page">
        <EmptyState title="Only you can view this curation" detail="This scroll is private to its creator.">
          <Link to="/scrolls" className="btn">
            Back to Scrolls
          </Link>
        </EmptyState>
      </div>
    );
  }
  return <ScrollContent key={view.scroll._id} scroll={view.scroll} page={view.page} viewerId={viewerId} />;
}

function ScrollContent({ scroll: initial, page, viewerId }: { scroll: Scroll; page: EchoPage; viewerId: string }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [scroll, setScroll] = useState(initial);
  const isCreator = scroll.creator._id === viewerId;
  const config = scroll.feedConfig;

  const fetchPage = useCallback(
    (n: number, cursor: string | null) => {
      const q = new URLSearchParams({ page: String(n), limit: "20" });
      if (cursor) q.set("cursor", cursor);
      return api<EchoPage>(`/scroll/${scroll._id}/echos?${q}`, { fallback: "Failed to fetch echos" });
    },
    [scroll._id],
  );

  function onFollowChange(next: Scroll) {
    setScroll(next);
    void revalidator.revalidate(); // following reloads the scroll list (spec §4)
  }

  // a fork opens in the editor, where the live preview shows what the copied rules give
  const [forking, setForking] = useState(false);
  async function onFork() {
    setForking(true);
    const fork = await forkScroll(scroll);
    setForking(false);
    if (fork) navigate(`/scroll/${fork._id}/edit`);
  }

  async function onDelete() {
    if (await deleteScroll(scroll)) navigate("/scrolls");
  }

  const remove = isCreator && scroll.type === "curation" ? (echo: Echo) => removeFromScroll(scroll._id, echo._id) : undefined;

  return (
    <div className="page">
      <header className="scroll-header card">
        <div className="scroll-title-row">
          <h1 className="page-title">
            <bdi>{scroll.name}</bdi>
          </h1>
          <span className={`badge badge-${scroll.type}`}>{scroll.type === "feed" ? "Feed" : "Curation"}</span>
          {scroll.isPrivate && <span className="badge">Private</span>}
        </div>
        {scroll.description && <p dir="auto">{scroll.description}</p>}
        {config && (config.includedTags.length > 0 || config.excludedTags.length > 0 || config.authors.length > 0) && (
          <div className="rule-chips">
            {config.includedTags.length > 0 && (
              <div className="chips">
                <span className="muted">Includes{config.tagMatchType === "all" ? " (all required)" : ""}:</span>
                {config.includedTags.map((t) => (
                  <Link key={t._id} to={`/tag/${t.name}`} className="tag-chip">
                    #<bdi>{t.name}</bdi>
                  </Link>
                ))}
              </div>
            )}
            {config.excludedTags.length > 0 && (
              <div className="chips">
                <span className="muted">Excludes:</span>
                {config.excludedTags.map((t) => (
                  <span key={t._id} className="tag-chip excluded">
                    #<bdi>{t.name}</bdi>
                  </span>
                ))}
              </div>
            )}
            {config.authors.length > 0 && (
              <div className="chips">
                <span className="muted">Authors:</span>
                {config.authors.map((a) => (
                  <Link key={a._id} to={`/user/${a._id}`} className="author-chip">
                    @<bdi>{a.userName}</bdi>
                  </Link>
                ))}
              </div>
            )}
          </div>
        )}
        {config && (
          <p className="rule-summary muted" data-testid="rule-summary">
            {describeRule(config)}
          </p>
        )}
        <div className="scroll-meta muted">
          by <Link to={`/user/${scroll.creator._id}`}>
            @<bdi>{scroll.creator.userName}</bdi>
          </Link> · {followers(scroll.followersCount)}
          {scroll.type === "curation" && ` · ${echos(scroll.echosCount)}`}
          {scroll.type === "feed" && <span data-testid="fork-count">{` · ${forks(scroll.forkCount)}`}</span>}
        </div>
        {scroll.forkedFrom && (
          <p className="muted" data-testid="forked-from">
            forked from <Link to={`/scroll/${scroll.forkedFrom._id}`}>
              <bdi>{scroll.forkedFrom.name}</bdi>
            </Link> by <Link to={`/user/${scroll.forkedFrom.creator._id}`}>
              @<bdi>{scroll.forkedFrom.creator.userName}</bdi>
            </Link>
          </p>
        )}
        <div className="scroll-buttons">
          {!isCreator && (
<FollowScrollButton scroll={scroll} onChange={onFollowChange} />
          )}
          {scroll.type === "feed" && !scroll.isPrivate && (
            <button type="button" className="btn" onClick={onFork} disabled={forking}>
              {forking ? "Forking..." : "Fork"}
            </button>
          )}
          {isCreator && (
            <>
              <Link to={`/scroll/${scroll._id}/edit`} className="btn">
                Edit
              </Link>
              <button type="button" className="btn btn-danger" onClick={onDelete}>
                Delete
              </button>
            </>
          )}
        </div>
      </header>
      <EchoExtensionsProvider value={{ removeFromScroll: remove, ...(scroll.type === "feed" ? { explain: whyInFeed(scroll) } : {}) }}>
        <EchoFeed
          restoreKey={`scroll:${scroll._id}`}
          live={liveQuery(scroll)}
          initial={page}
          fetchPage={fetchPage}
          viewerId={viewerId}
          empty={
            scroll.type === "feed" ? (
              <EmptyState title="No echos match your filters" detail="Try adjusting your scroll settings or check back later" />
            ) : (
              <EmptyState title="No echos in this curation yet" detail="Use Save to Scroll in an echo's menu to add one." />
            )
          }
        />
      </EchoExtensionsProvider>
    </div>
  );
}
