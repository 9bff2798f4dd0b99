import type { Scroll } from "../schema";
import { echos, followers } from "./counts";

/**
 * Right panel on large screens: up to 5 feed scrolls and 3 curations, with counts (spec §2).
 * The layout loads only the first page of scrolls: with `more`, counts read "20+" and "See all"
 * leads to the full lists.
 */
export function ScrollPanel({ scrolls, more = false }: { scrolls: Scroll[]; more?: boolean }) {
  const count = (n: number) => (more ? `${n}+` : String(n));
  const feeds = scrolls.filter((s) => s.type === "feed");
  const curations = scrolls.filter((s) => s.type === "curation");
  return (
    <div className="scroll-panel">
      <section>
        <h2 className="panel-heading">
          Feed Scrolls <span className="count">{count(feeds.length)}</span>
        </h2>
        {feeds.length === 0 && <p className="muted">No feed scrolls yet</p>}
        <ul className="panel-list">
          {feeds.slice(0, 5).map((s) => (
            <li key={s._id}>
              <a href={`/scroll/${s._id}`}>
                <bdi>{s.name}</bdi>
              </a>
              <span className="count">{followers(s.followersCount)}</span>
            </li>
          ))}
        </ul>
        {(feeds.length > 5 || more) && <a href="/scrolls/feeds">See all {count(feeds.length)}</a>}
      </section>
      <section>
        <h2 className="panel-heading">
          Curations <span className="count">{count(curations.length)}</span>
        </h2>
        {curations.length === 0 && <p className="muted">No curations yet</p>}
        <ul className="panel-list">
          {curations.slice(0, 3).map((s) => (
            <li key={s._id}>
              <a href={`/scroll/${s._id}`}>
                <bdi>{s.name}</bdi>
              </a>
              <span className="count">{echos(s.echosCount)}</span>
            </li>
          ))}
        </ul>
        {(curations.length > 3 || more) && <a href="/scrolls/curations">See all {count(curations.length)}</a>}
      </section>
      <a href="/scroll/new" className="btn btn-block">
        Create Scroll
      </a>
    </div>
  );
}
