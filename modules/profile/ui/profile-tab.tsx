// One tab of a profile, the user's echos or scrolls, paged by the one pager (shared/paged-list).
import { useEffect, type ReactNode, type RefObject } from "react";
import { Link } from "react-router";
import { api, LoadMore, nextPageQuery, usePagedList, type Pagination } from "../../shared/index";
import { EmptyState } from "../../shell/index";
import type { Profile } from "../schema";

export type Tab = "echos" | "scrolls";
/** What the open tab has loaded: the profile remembers it for Back. */
export type Loaded = { items: unknown[]; pagination: Pagination };

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
export function ProfileTab<T extends { _id: string }>({ profile, noun, initial, loaded, renderItem }: {
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
  const list = usePagedList<T>({
    first: { items: initial.items, at: initial.pagination },
    load: async (at) => {
      const url = `/profile/user/${profile._id}/${path}`;
      const res = await api<Record<string, unknown> & { pagination: Pagination }>(`${url}${url.includes("?") ? "&" : "?"}${nextPageQuery(at)}`, {
        fallback: `Failed to load more ${plural}`,
      });
      return { items: res[plural] as T[], at: res.pagination };
    },
    key: (item) => item._id,
  });
  const { items } = list;
  useEffect(() => {
    loaded.current = { items, pagination: list.at as Pagination };
  }, [items, list.at]);
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
      <LoadMore list={list} />
    </section>
  );
}
