// A profile's followers or the people it follows, paged by the one pager (shared/paged-list).
import { useRef } from "react";
import { Link } from "react-router";
import { api, LoadMore, nextPageQuery, usePagedList, type Pagination } from "../../shared/index";
import type { UserHit } from "../schema";

export function FollowList({ userId, which, onClose }: { userId: string; which: "followers" | "following"; onClose: () => void }) {
  const rows = useRef<HTMLUListElement>(null);
  const list = usePagedList<UserHit>({
    first: null,
    load: async (at) => {
      const res = await api<Record<string, UserHit[]> & { pagination: Pagination }>(`/profile/user/${userId}/${which}?${nextPageQuery(at ?? { limit: 20 })}`, {
        // the spec's texts: the first page is "fetched", the next ones "loaded more"
        fallback: at ? `Failed to load more ${which}` : `Failed to fetch ${which}`,
      });
      return { items: res[which] ?? [], at: res.pagination };
    },
    key: (u) => u._id,
  });
  const title = which === "followers" ? "Followers" : "Following";
  return (
    <section className="card follow-list" aria-label={title}>
      <div className="tab-head">
        <h2>{title}</h2>
        <button type="button" className="btn btn-sm" onClick={onClose}>
          Close
        </button>
      </div>
      {list.at && list.items.length === 0 && <p className="muted">{which === "followers" ? "No followers yet" : "Not following anyone yet"}</p>}
      <ul className="panel-list" ref={rows}>
        {list.items.map((u) => (
          <li key={u._id}>
            <Link to={`/user/${u._id}`}>@{u.userName}</Link>
          </li>
        ))}
      </ul>
      <LoadMore list={list} rows={rows} />
    </section>
  );
}
