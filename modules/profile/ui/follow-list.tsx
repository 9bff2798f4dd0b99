// A profile's followers or the people it follows, paged by "Load more".
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { api, type Pagination, toast } from "../../shared/index";
import type { UserHit } from "../schema";
import { nextPageQuery } from "./profile-tab";

export function FollowList({ userId, which, onClose }: { userId: string; which: "followers" | "following"; onClose: () => void }) {
  const [state, setState] = useState<{ users: UserHit[]; pagination: Pagination } | null>(null);
  const [loading, setLoading] = useState(false);
  const fallback = which === "followers" ? "Failed to fetch followers" : "Failed to fetch following";
  async function load(after?: Pagination) {
    const page = after ? after.page + 1 : 1;
    setLoading(true);
    try {
      const res = await api<Record<string, UserHit[]> & { pagination: Pagination }>(
        `/profile/user/${userId}/${which}?${after ? nextPageQuery(after) : "page=1&limit=20"}`,
        { fallback: page > 1 ? `Failed to load more ${which}` : fallback },
      );
      setState((prev) => ({ users: [...(page > 1 ? (prev?.users ?? []) : []), ...(res[which] ?? [])], pagination: res.pagination }));
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setLoading(false);
    }
  }
  useEffect(() => {
    void load();
  }, [userId, which]);
  return (
    <section className="card follow-list" aria-label={which === "followers" ? "Followers" : "Following"}>
      <div className="tab-head">
        <h2>{which === "followers" ? "Followers" : "Following"}</h2>
        <button type="button" className="btn btn-sm" onClick={onClose}>
          Close
        </button>
      </div>
      {state && state.users.length === 0 && <p className="muted">{which === "followers" ? "No followers yet" : "Not following anyone yet"}</p>}
      <ul className="panel-list">
        {state?.users.map((u) => (
          <li key={u._id}>
            <Link to={`/user/${u._id}`}>@{u.userName}</Link>
          </li>
        ))}
      </ul>
      {state?.pagination.hasMore && (
        <button type="button" className="btn btn-block" disabled={loading} onClick={() => load(state.pagination)}>
          Load more
        </button>
      )}
    </section>
  );
}
