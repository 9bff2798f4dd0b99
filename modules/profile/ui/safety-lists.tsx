import { useRef, useState } from "react";
import { Link } from "react-router";
import { api, LoadMore, toast, usePagedList } from "../../shared/index";
import type { SafetyPage, SafetyRelation, SafetyUser } from "../schema";

const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const moment = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC", timeZoneName: "short" });

type Which = "blocks" | "mutes";

const TEXT: Record<Which, { title: string; empty: string; hint: string; undo: string; done: string; path: string; fallback: string }> = {
  blocks: {
    title: "Blocked accounts",
    empty: "You haven't blocked anyone.",
    hint: "Neither of you sees the other's echos; they can't follow you, like your echos or mention you.",
    undo: "Unblock",
    done: "Unblocked",
    path: "block",
    fallback: "Failed to unblock",
  },
  mutes: {
    title: "Muted accounts",
    empty: "You haven't muted anyone.",
    hint: "Their echos and notifications leave your lists. They aren't told.",
    undo: "Unmute",
    done: "Unmuted",
    path: "mute",
    fallback: "Failed to unmute",
  },
};

/**
 * Settings → the accounts one blocks and mutes (issue 32): newest first, a page at a time ("Show
 * more" goes on from the cursor), each with its Unblock / Unmute. An account undone stays in the
 * list, marked, until the page is left, so the focus does not jump.
 */
export function SafetyList({ which, initial }: { which: Which; initial: SafetyPage }) {
  const text = TEXT[which];
  const rows = useRef<HTMLUListElement>(null);
  const list = usePagedList<SafetyUser>({
    first: { items: initial.users, at: initial.pagination },
    load: async (at) => {
      const page = await api<SafetyPage>(`/profile/me/${which}?cursor=${encodeURIComponent(at?.nextCursor ?? "")}`, { fallback: `Failed to load ${text.title.toLowerCase()}` });
      return { items: page.users, at: page.pagination };
    },
    key: (u) => u._id,
  });
  const titleId = `${which}-title`;

  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{text.title}</h2>
      <p className="field-hint">{text.hint}</p>
      {list.items.length === 0 ? (
        <p className="muted">{text.empty}</p>
      ) : (
        <ul className="people-list" ref={rows}>
          {list.items.map((user) => (
            <Entry key={user._id} which={which} user={user} />
          ))}
        </ul>
      )}
      <LoadMore list={list} label="Show more" rows={rows} />
    </section>
  );
}

function Entry({ which, user }: { which: Which; user: SafetyUser }) {
  const text = TEXT[which];
  const [undone, setUndone] = useState(false);
  const [working, setWorking] = useState(false);

  async function undo() {
    setWorking(true);
    try {
      await api<SafetyRelation>(`/profile/user/${user._id}/${text.path}`, { method: "DELETE", fallback: text.fallback });
      setUndone(true);
      toast.success(`${text.done} @${user.userName}`);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setWorking(false);
    }
  }

  return (
    <li className="person">
      <div className="person-text">
        <Link to={`/user/${user._id}`}>
          @<bdi>{user.userName}</bdi>
        </Link>
        <p className="person-bio muted">
          {undone ? `${text.done}` : `Since ${day(user.since)}${which === "mutes" ? (user.until ? ` · until ${moment(user.until)}` : " · until you unmute") : ""}`}
        </p>
      </div>
      {!undone && (
        <button type="button" className="btn btn-sm" aria-label={`${text.undo} @${user.userName}`} disabled={working} onClick={undo}>
          {text.undo}
        </button>
      )}
    </li>
  );
}
