// One tab of a profile, the user's echos or scrolls, with "Load more"; and the query of a list's
// next page, which the followers / following list uses too.
import { useEffect, useState, type ReactNode, type RefObject } from "react";
import { Link } from "react-router";
import { api, type Pagination, toast } from "../../shared/index";
import { EmptyState } from "../../shell/index";
import type { Profile } from "../schema";

export type Tab = "echos" | "scrolls";
/** What the open tab has loaded: the profile remembers it for Back. */
export type Loaded = { items: unknown[]; pagination: Pagination };

/** The query of the page after `pagination`: by its cursor, like every list (page numbers too, for the count). */
export function nextPageQuery({ page, limit, nextCursor }: Pagination): string {
  return `page=${page + 1}&limit=${limit}${nextCursor ? `&cursor=${encodeURIComponent(nextCursor)}` : ""}`;
}

function useLoadMore<T>(initialItems: T[], initialPagination: Pagination, path: string, key: string, fallback: string) {
  const [items, setItems] = useState(initialItems);
  const [pagination, setPagination] = useState(initialPagination);
  const [loading, setLoading] = useState(false);
  async function more() {
    if (loading || !pagination.hasMore) return;
    setLoading(true);
    try {
      const res = await api<Record<string, unknown> & { pagination: Pagination }>(
        `${path}${path.includes("?") ? "&" : "?"}${nextPageQuery(pagination)}`,
        { fallback },
      );
      setItems((prev) => [...prev, ...(res[key] as T[])]);
      setPagination(res.pagination);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setLoading(false);
    }
  }
  return { items, pagination, loading, more };
}

/** What differs between the two tabs besides their items. */
const TABS = {
  Echo: { createHref: "/new", emptyDetail: "Share your first thought.", path: "echos", listClass: undefined },
  Scroll: { createHref: "/scroll/new", emptyDetail: "Make a feed or a curation.", path: "scrolls?type=created", listClass: "scroll-grid" },
} as const;

/**
 * One tab of the profile: the user's echos or scrolls with a create link for the owner, an empty
 * state and "Load more". `noun` names everything: "Echo" → "My Echos", "New Echo", "No echos
 * yet", the API's `echos` key.
 */
export function ProfileTab<T>({ profile, noun, initial, loaded, renderItem }: {
  profile: Profile;
  noun: keyof typeof TABS;
  initial: { items: T[]; pagination: Pagination };
  /** where the tab reports what it has loaded, for the profile's memory */
  loaded: RefObject<Loaded | null>;
  renderItem: (item: T) => ReactNode;
}) {
  const { createHref, emptyDetail, path, listClass } = TABS[noun];
  const owner = profile.isMe ? "My" : `${profile.userName}'s`;
  const plural = `${noun.toLowerCase()}s`;
  const { items, pagination, loading, more } = useLoadMore<T>(
    initial.items,
    initial.pagination,
    `/profile/user/${profile._id}/${path}`,
    plural,
    `Failed to load more ${plural}`,
  );
  useEffect(() => {
    loaded.current = { items, pagination };
  }, [items, pagination]);
  return (
    <section aria-label={`${owner} ${noun}s`}>
      <div className="tab-head">
        <h2>{`${owner} ${noun}s`}</h2>
        {profile.isMe && (
          <Link to={createHref} className="btn btn-primary btn-sm">
            New {noun}
          </Link>
        )}
      </div>
      {items.length === 0 ? (
        <EmptyState title={`No ${plural} yet`} detail={profile.isMe ? emptyDetail : undefined}>
          {profile.isMe && (
            <Link to={createHref} className="btn btn-primary">
              Create {noun}
            </Link>
          )}
        </EmptyState>
      ) : listClass ? (
        <div className={listClass}>{items.map(renderItem)}</div>
      ) : (
        items.map(renderItem)
      )}
      {pagination.hasMore && (
        <button type="button" className="btn btn-block" disabled={loading} onClick={more}>
          {loading ? "Loading..." : "Load more"}
        </button>
      )}
    </section>
  );
}
