import { Link } from "react-router";
import type { Scroll } from "../schema";
import { echos, followers } from "./counts";
import { describeRule } from "./rule-words";

/** Up to 3 included tags and 2 authors, then '+N' (spec §2). */
export function ScrollCard({ scroll, actions, isNew }: { scroll: Scroll; actions?: React.ReactNode; isNew?: boolean }) {
  const tags = scroll.feedConfig?.includedTags ?? [];
  const excluded = scroll.feedConfig?.excludedTags ?? [];
  const authors = scroll.feedConfig?.authors ?? [];
  return (
    <article className={isNew ? "scroll-card just-created" : "scroll-card"} data-testid="scroll-card">
      <div className="scroll-card-head">
        <Link to={`/scroll/${scroll._id}`} className="scroll-card-name">
          <bdi>{scroll.name}</bdi>
        </Link>
        <span className={`badge badge-${scroll.type}`}>{scroll.type === "feed" ? "Feed" : "Curation"}</span>
        {scroll.isPrivate && <span className="badge">Private</span>}
        {isNew && <span className="badge badge-new">New</span>}
      </div>
      {scroll.description && (
        <p className="scroll-card-desc" dir="auto">
          {scroll.description}
        </p>
      )}
      {(tags.length > 0 || authors.length > 0 || excluded.length > 0) && (
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
          {/* what the feed leaves out, as on its page (issue 29: the card used to omit it) */}
          {excluded.slice(0, 2).map((t) => (
            <span key={`x:${t._id}`} className="tag-chip excluded">
              <span className="visually-hidden">not </span>#<bdi>{t.name}</bdi>
            </span>
          ))}
          {excluded.length > 2 && <span className="more">+{excluded.length - 2}</span>}
        </div>
      )}
      {scroll.feedConfig && (
        <p className="scroll-card-rule muted" data-testid="scroll-card-rule">
          {describeRule(scroll.feedConfig)}
        </p>
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
