import { useMemo, useState } from "react";
import { Link } from "react-router";
import { EchoCard, type Echo } from "../../echo/index";
import { FollowScrollButton, ScrollCard, type Scroll } from "../../scroll/index";
import { EmptyState } from "../../shell/index";
import type { Period, PopularSort, Tag } from "../schema";

export type CommunityData = {
  feeds: Scroll[] | null;
  curations: Scroll[] | null;
  tags: Tag[] | null;
  popular: Echo[] | null;
};

function Section({ title, link, linkText, children }: { title: string; link: string; linkText: string; children: React.ReactNode }) {
  return (
    <section className="card community-section">
      <div className="tab-head">
        <h2>{title}</h2>
        <Link to={link}>{linkText}</Link>
      </div>
      {children}
    </section>
  );
}

/** Tag size and colour tiers by count (spec §9): over 100, 50, 25, 10. */
export function tagTier(count: number): number {
  if (count > 100) return 4;
  if (count > 50) return 3;
  if (count > 25) return 2;
  if (count > 10) return 1;
  return 0;
}

/** A public scroll with the viewer's Follow / Unfollow (its own state comes with the scroll). */
function PublicScrollCard({ scroll, viewerId }: { scroll: Scroll; viewerId: string }) {
  const follow = scroll.creator._id !== viewerId ? <FollowScrollButton scroll={scroll} inList /> : undefined;
  return <ScrollCard scroll={scroll} actions={follow} />;
}

/** /community and /browse-community: four sections; a failed section is logged and empty. */
export function CommunityScreen({ data, viewerId }: { data: CommunityData; viewerId: string }) {
  return (
    <div className="page page-wide">
      <h1 className="page-title">Discover Community</h1>
      <Section title="Public Feed Scrolls" link="/browse/scrolls" linkText="Browse All">
        {data.feeds?.length ? (
          <div className="scroll-grid">{data.feeds.map((s) => <PublicScrollCard key={s._id} scroll={s} viewerId={viewerId} />)}</div>
        ) : (
          <p className="muted">No public feed scrolls available yet</p>
        )}
      </Section>
      <Section title="Public Curations" link="/browse/curation" linkText="Browse All">
        {data.curations?.length ? (
          <div className="scroll-grid">{data.curations.map((s) => <PublicScrollCard key={s._id} scroll={s} viewerId={viewerId} />)}</div>
        ) : (
          <p className="muted">No public curation scrolls available yet</p>
        )}
      </Section>
      <Section title="Trending Tags" link="/browse/tags" linkText="See All">
        {data.tags?.length ? (
          <div className="chips">
            {data.tags.map((t) => (
              <Link key={t._id} to={`/tag/${encodeURIComponent(t.name)}`} className={`tag-chip tier-${tagTier(t.count)}`}>
                #<bdi>{t.name}</bdi> <span className="count">{t.count}</span>
              </Link>
            ))}
          </div>
        ) : (
          <p className="muted">No tags available yet</p>
        )}
      </Section>
      <Section title="Today's Popular Echos" link="/browse/popular" linkText="See All">
        {data.popular?.length ? (
          data.popular.map((e) => (
            <div key={e._id} className="echo-row">
              <EchoCard echo={e} viewerId={viewerId} />
            </div>
          ))
        ) : (
          <p className="muted">No popular echos today</p>
        )}
      </Section>
    </div>
  );
}

/** /browse/scrolls and /browse/curation: client-side filter on name, description and creator. */
export function BrowseScrolls({ scrolls, type, viewerId }: { scrolls: Scroll[]; type: "feed" | "curation"; viewerId: string }) {
  const [term, setTerm] = useState("");
  const q = term.trim().toLowerCase();
  const shown = useMemo(
    () =>
      q
        ? scrolls.filter((s) => [s.name, s.description, s.creator.userName].some((f) => f.toLowerCase().includes(q)))
        : scrolls,
    [q, scrolls],
  );
  return (
    <div className="page page-wide">
      <h1 className="page-title">{type === "feed" ? "Public Feed Scrolls" : "Public Curations"}</h1>
      <input
        type="search"
        className="search-input"
        aria-label="Search scrolls"
        placeholder="Search by name, description or creator"
        value={term}
        onChange={(e) => setTerm(e.target.value)}
      />
      {q && (
        <p className="muted result-count">
          {shown.length} scroll(s) found for "<bdi>{term.trim()}</bdi>"
        </p>
      )}
      {shown.length === 0 ? (
        q ? (
          <EmptyState title="No scrolls found" detail="Try adjusting your search terms" />
        ) : (
          <EmptyState title={type === "feed" ? "No scrolls found" : "No collections found"} />
        )
      ) : (
        <div className="scroll-grid">
          {shown.map((s) => (
            <PublicScrollCard key={s._id} scroll={s} viewerId={viewerId} />
          ))}
        </div>
      )}
    </div>
  );
}

type TagSort = "popular" | "alphabetical" | "recent";

/** /browse/tags: search, sort, Card View / Cloud View; tiers by count. */
export function BrowseTags({ tags }: { tags: Tag[] }) {
  const [term, setTerm] = useState("");
  const [sort, setSort] = useState<TagSort>("popular");
  const [view, setView] = useState<"card" | "cloud">("card");
  const q = term.trim().toLowerCase().replace(/^#/, "");
  const shown = useMemo(() => {
    const list = tags.filter((t) => t.name.includes(q));
    if (sort === "alphabetical") return [...list].sort((a, b) => a.name.localeCompare(b.name));
    if (sort === "recent") return [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return [...list].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  }, [tags, q, sort]);
  return (
    <div className="page page-wide">
      <h1 className="page-title">Tags</h1>
      <div className="toolbar">
        <input type="search" className="search-input" aria-label="Search tags" placeholder="Search tags" value={term} onChange={(e) => setTerm(e.target.value)} />
        <select aria-label="Sort tags" className="select" value={sort} onChange={(e) => setSort(e.target.value as TagSort)}>
          <option value="popular">Most Popular</option>
          <option value="alphabetical">A-Z</option>
          <option value="recent">Recently Added</option>
        </select>
        <div className="segmented" role="tablist">
          <button type="button" role="tab" aria-selected={view === "card"} className={view === "card" ? "active" : ""} onClick={() => setView("card")}>
            Card View
          </button>
          <button type="button" role="tab" aria-selected={view === "cloud"} className={view === "cloud" ? "active" : ""} onClick={() => setView("cloud")}>
            Cloud View
          </button>
        </div>
      </div>
      {shown.length === 0 ? (
        <EmptyState title="No tags found" detail="Try a different search term" />
      ) : view === "card" ? (
        <div className="tag-grid">
          {shown.map((t) => (
            <Link key={t._id} to={`/tag/${encodeURIComponent(t.name)}`} className={`tag-card tier-${tagTier(t.count)}`}>
              <span className="tag-card-name">
                #<bdi>{t.name}</bdi>
              </span>
              <span className="muted">
                {t.count} echos · {t.recentEchosCount} this week
              </span>
            </Link>
          ))}
        </div>
      ) : (
        <div className="tag-cloud">
          {shown.map((t) => (
            <Link key={t._id} to={`/tag/${encodeURIComponent(t.name)}`} className={`cloud-tag tier-${tagTier(t.count)}`}>
              #<bdi>{t.name}</bdi>
            </Link>
          ))}
        </div>
      )}
    </div>
  );
}

const PERIOD_LABELS: Record<Period, string> = { today: "Today", week: "This Week", month: "This Month", all: "All Time" };
const SORT_LABELS: Record<PopularSort, string> = { likes: "Most Liked", comments: "Most Commented", shares: "Most Shared", recent: "Most Recent" };

/** /browse/popular: period buttons, sort select, rank badges, a summary of totals. */
export function BrowsePopular({ echos, period, sort, viewerId, onChange }: {
  echos: Echo[];
  period: Period;
  sort: PopularSort;
  viewerId: string;
  onChange: (period: Period, sort: PopularSort) => void;
}) {
  // comments don't exist yet and shares are rare, so the summary counts only echos and likes
  const likes = echos.reduce((sum, e) => sum + e.likes, 0);
  return (
    <div className="page">
      <h1 className="page-title">Popular Echos</h1>
      <div className="toolbar">
        <div className="segmented" role="group" aria-label="Period">
          {(Object.keys(PERIOD_LABELS) as Period[]).map((p) => (
            <button key={p} type="button" aria-pressed={p === period} className={p === period ? "active" : ""} onClick={() => onChange(p, sort)}>
              {PERIOD_LABELS[p]}
            </button>
          ))}
        </div>
        <select aria-label="Sort" className="select" value={sort} onChange={(e) => onChange(period, e.target.value as PopularSort)}>
          {(Object.keys(SORT_LABELS) as PopularSort[]).map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <p className="summary muted" data-testid="popular-summary">
        {echos.length} echos · {likes} likes
      </p>
      {echos.length === 0 ? (
        <EmptyState title={period === "today" ? "No popular echos today" : "No popular echos yet"} />
      ) : (
        echos.map((e, i) => (
          <div key={e._id} className="echo-row ranked">
            <span className={i < 3 ? "rank-badge warning" : i < 10 ? "rank-badge info" : "rank-badge"}>
              #{i + 1}
              {i < 3 && " Trending"}
            </span>
            <EchoCard echo={e} viewerId={viewerId} />
          </div>
        ))
      )}
    </div>
  );
}
