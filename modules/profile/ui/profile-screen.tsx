import { useEffect, useRef, useState, type FormEvent, type ReactNode, type RefObject } from "react";
import { Link, useRevalidator } from "react-router";
import { EchoCard, useListMemory, type Echo, type EchoPage } from "../../echo/index";
import { ScrollCard, type Scroll } from "../../scroll/index";
import { api, charCount, clampChars, type Pagination, toast, UNITS_PER_CHAR } from "../../shared/index";
import { EmptyState } from "../../shell/index";
import { MAX_BIO, type Profile, type SafetyRelation, type UserHit } from "../schema";
import { SafetyActions } from "./safety-actions";

type ScrollPage = { scrolls: Scroll[]; pagination: Pagination };
type Tab = "echos" | "scrolls";
/** What the open tab has loaded: the profile remembers it for Back. */
type Loaded = { items: unknown[]; pagination: Pagination };

/** /profile and /user/{id} (spec §2): header, counts, follow, edit, tabs with load more. */
export function ProfileScreen({ profile: initial, echos, scrolls, viewerId, relation = null }: {
  profile: Profile;
  echos: EchoPage;
  scrolls: ScrollPage;
  viewerId: string;
  /** whether the viewer blocks or mutes this user (null on one's own profile) */
  relation?: SafetyRelation | null;
}) {
  const [profile, setProfile] = useState(initial);
  const [tab, setTab] = useState<Tab>("echos");
  const [editing, setEditing] = useState(false);
  const [list, setList] = useState<null | "followers" | "following">(null);
  const [working, setWorking] = useState(false);
  // Back to the profile brings back the tab, its loaded pages and the scroll position: the open
  // tab reports what it has loaded; a restore remounts it (a new generation) from the snapshot
  const loaded = useRef<Loaded | null>(null);
  const [restored, setRestored] = useState<{ generation: number; tab: Tab; list: Loaded } | null>(null);
  useListMemory<unknown>(
    `profile:${initial._id}`,
    () => ({ items: loaded.current?.items ?? [], page: loaded.current?.pagination.page ?? 1, cursor: null, hasMore: loaded.current?.pagination.hasMore ?? false, view: tab }),
    (snapshot) => {
      const shown = snapshot.view === "scrolls" ? scrolls.pagination : echos.pagination;
      // a trimmed snapshot continues from the rows it kept
      const page = Math.max(1, Math.ceil(snapshot.items.length / shown.limit));
      const view: Tab = snapshot.view === "scrolls" ? "scrolls" : "echos";
      setTab(view);
      setRestored((r) => ({ generation: (r?.generation ?? 0) + 1, tab: view, list: { items: snapshot.items, pagination: { ...shown, page, hasMore: snapshot.hasMore } } }));
    },
  );
  const generation = restored?.generation ?? 0;
  // the restored pages belong to the tab they were saved from; the other tab starts afresh
  const restoredList = (which: Tab) => (restored?.tab === which ? restored.list : null);

  async function toggleFollow() {
    setWorking(true);
    try {
      const next = await api<Profile>(`/profile/user/${profile._id}/follow`, {
        method: profile.isFollowing ? "DELETE" : "POST",
        fallback: profile.isFollowing ? "Failed to unfollow user" : "Failed to follow user",
      });
      setProfile(next);
      toast.success(next.isFollowing ? `Following @${next.userName}` : `Unfollowed @${next.userName}`);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setWorking(false);
    }
  }

  return (
    <div className="page profile">
      <header className="card profile-header">
        <div className="profile-title">
          <div className="avatar" aria-hidden="true">
            {profile.userName.slice(0, 1).toUpperCase()}
          </div>
          <div>
            <h1 className="page-title">
              @<bdi>{profile.userName}</bdi>
            </h1>
            <p className={profile.bio ? "profile-bio" : "profile-bio muted"} dir="auto">{profile.bio || "No bio available"}</p>
          </div>
          <div className="profile-actions">
            {profile.isMe ? (
              <button type="button" className="btn" onClick={() => setEditing(true)}>
                Edit Profile
              </button>
            ) : (
              <button type="button" className={profile.isFollowing ? "btn" : "btn btn-primary"} disabled={working} onClick={toggleFollow}>
                {profile.isFollowing ? "Unfollow" : "Follow"}
              </button>
            )}
          </div>
        </div>
        <dl className="profile-counts">
          <div>
            <dt>Echos</dt>
            <dd>{profile.echosCount}</dd>
          </div>
          <div>
            <dt>Scrolls</dt>
            <dd>{profile.scrollsCount}</dd>
          </div>
          <div>
            <dt>
              <button type="button" className="link-btn" onClick={() => setList("followers")}>
                Followers
              </button>
            </dt>
            <dd>{profile.followersCount}</dd>
          </div>
          <div>
            <dt>
              <button type="button" className="link-btn" onClick={() => setList("following")}>
                Following
              </button>
            </dt>
            <dd>{profile.followingCount}</dd>
          </div>
        </dl>
        {relation && !profile.isMe && <SafetyActions userName={profile.userName} initial={relation} />}
      </header>
      {editing && <EditProfile profile={profile} onClose={() => setEditing(false)} onSaved={setProfile} />}
      {list && <FollowList userId={profile._id} which={list} onClose={() => setList(null)} />}
      <div className="tabs" role="tablist">
        <button type="button" role="tab" aria-selected={tab === "echos"} className={tab === "echos" ? "active" : ""} onClick={() => setTab("echos")}>
          Echos
        </button>
        <button type="button" role="tab" aria-selected={tab === "scrolls"} className={tab === "scrolls" ? "active" : ""} onClick={() => setTab("scrolls")}>
          Scrolls
        </button>
      </div>
      {tab === "echos" ? (
        <LoadMoreTab<Echo>
          key={`${profile._id}:echos:${generation}`}
          profile={profile}
          noun="Echo"
          initial={(restoredList("echos") as { items: Echo[]; pagination: Pagination } | null) ?? { items: echos.echos, pagination: echos.pagination }}
          loaded={loaded}
          renderItem={(e) => (
            <div key={e._id} className="echo-row">
              <EchoCard echo={e} viewerId={viewerId} />
            </div>
          )}
        />
      ) : (
        <LoadMoreTab<Scroll>
          key={`${profile._id}:scrolls:${generation}`}
          profile={profile}
          noun="Scroll"
          initial={(restoredList("scrolls") as { items: Scroll[]; pagination: Pagination } | null) ?? { items: scrolls.scrolls, pagination: scrolls.pagination }}
          loaded={loaded}
          renderItem={(s) => <ScrollCard key={s._id} scroll={s} />}
        />
      )}
    </div>
  );
}

/** The query of the page after `pagination`: by its cursor, like every list (page numbers too, for the count). */
function nextPageQuery({ page, limit, nextCursor }: Pagination): string {
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
function LoadMoreTab<T>({ profile, noun, initial, loaded, renderItem }: {
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

function EditProfile({ profile, onClose, onSaved }: { profile: Profile; onClose: () => void; onSaved: (p: Profile) => void }) {
  const [bio, setBio] = useState(profile.bio);
  const [email, setEmail] = useState(profile.email ?? "");
  const [saving, setSaving] = useState(false);
  const revalidator = useRevalidator();
  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    try {
      const next = await api<Profile>("/profile/me", { method: "PATCH", body: { bio, email }, fallback: "Failed to update profile" });
      onSaved(next);
      toast.success("Profile updated");
      void revalidator.revalidate();
      onClose();
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setSaving(false);
    }
  }
  return (
    <form className="card edit-profile" onSubmit={save} aria-label="Edit Profile">
      <h2>Edit Profile</h2>
      <label className="field">
        <span>Bio</span>
        <textarea value={bio} maxLength={MAX_BIO * UNITS_PER_CHAR} rows={3} onChange={(e) => setBio(clampChars(e.target.value, MAX_BIO))} />
        <span className="field-hint">
          {charCount(bio)}/{MAX_BIO}
        </span>
      </label>
      <label className="field">
        <span>Email (optional, shown only to you)</span>
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
      </label>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? "Saving..." : "Save"}
        </button>
      </div>
    </form>
  );
}

function FollowList({ userId, which, onClose }: { userId: string; which: "followers" | "following"; onClose: () => void }) {
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
