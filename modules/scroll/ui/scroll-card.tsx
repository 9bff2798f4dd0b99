import { Link } from "react-router";
import type { Scroll } from "../schema";
import { echos, followers } from "./counts";

/** Up to 3 included tags and 2 authors, then '+N' (spec §2). */
export function ScrollCard({ scroll, actions }: { scroll: Scroll; actions?: React.ReactNode }) {
  const tags = scroll.feedConfig?.includedTags ?? [];
  const authors = scroll.feedConfig?.authors ?? [];
  return (
    <article className="scroll-card" data-testid="scroll-card">
      <div className="scroll-card-head">
        <Link to={`/scroll/${scroll._id}`} className="scroll-card-name">
          <bdi>{scroll.name}</bdi>
        </Link>
        <span className={`badge badge-${scroll.type}`}>{scroll.type === "feed" ? "Feed" : "Curation"}</span>
        {scroll.isPrivate && <span className="badge">Private</span>}
      </div>
      {scroll.description && (
        <p className="scroll-card-desc" dir="auto">
          {scroll.description}
        </p>
      )}
      {(tags.length > 0 || authors.length > 0) && (
        <div className="chips">
          {tags.slice(0, 3).map((t) => (
            <span key={t._id} className="tag-chip">
              #<bdi>{t.name}</bdi>
            </span>
          ))}
          {tags.length > 3 && <span className="more">+{tags.length - 3}</span>}
          {authors.slice(0, 2).map((a) => (
            <span key={a._id} className="author-chip">
              @<bdi>{a.userName}</bdi>
            </span>
          ))}
          {authors.length > 2 && <span className="more">+{authors.length - 2}</span>}
        </div>
      )}
      <div className="scroll-card-foot">
        <span className="muted">
          by @<bdi>{scroll.creator.userName}</bdi> · {scroll.type === "curation" ? `${echos(scroll.echosCount)} · ` : ""}
          {followers(scroll.followersCount)}
        </span>
        {actions && <span className="scroll-card-actions">{actions}</span>}
      </div>
    </article>
  );
}
