// /profile and /user/{id} (spec §2): the header with counts and the follow or edit button, the
// followers / following list, and the Echos and Scrolls tabs (profile-tab.tsx) that Back restores.
import { useRef, useState } from "react";
import { EchoCard, useListMemory, type Echo, type EchoPage } from "../../echo/index";
import { ScrollCard, type Scroll } from "../../scroll/index";
import type { Pagination } from "../../shared/index";
import type { Profile, SafetyRelation } from "../schema";
import { EditProfile } from "./edit-profile";
import { FollowList } from "./follow-list";
import { ProfileTab, type Loaded, type Tab } from "./profile-tab";
import { SafetyActions } from "./safety-actions";
import { useFollowToggle } from "./use-follow-toggle";

type ScrollPage = { scrolls: Scroll[]; pagination: Pagination };

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

  const follow = useFollowToggle(profile._id, profile.isFollowing, setProfile);

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
              <button type="button" className={profile.isFollowing ? "btn" : "btn btn-primary"} disabled={follow.working} onClick={follow.toggle}>
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
      {list && <FollowList key={`${profile._id}:${list}`} userId={profile._id} which={list} onClose={() => setList(null)} />}
      <div className="tabs" role="tablist">
        <button type="button" role="tab" aria-selected={tab === "echos"} className={tab === "echos" ? "active" : ""} onClick={() => setTab("echos")}>
          Echos
        </button>
        <button type="button" role="tab" aria-selected={tab === "scrolls"} className={tab === "scrolls" ? "active" : ""} onClick={() => setTab("scrolls")}>
          Scrolls
        </button>
      </div>
      {tab === "echos" ? (
        <ProfileTab<Echo>
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
        <ProfileTab<Scroll>
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
