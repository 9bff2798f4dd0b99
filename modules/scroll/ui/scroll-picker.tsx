import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Scroll } from "../schema";
import { pickSelected, readStoredSelection, storeSelection } from "./selection";

const WINDOW = 3;

/** Sidebar picker of feed scrolls (spec §2): vertical, 3 at once, up and down arrows. */
export function ScrollPicker({ scrolls, selectedId }: { scrolls: Scroll[] | null; selectedId: string | null }) {
  const navigate = useNavigate();
  const feeds = (scrolls ?? []).filter((s) => s.type === "feed");
  const selectedIndex = feeds.findIndex((s) => s._id === selectedId);
  const [start, setStart] = useState(Math.max(0, Math.min(selectedIndex, feeds.length - WINDOW)));

  // The server chose from the cookie; if local storage says otherwise (another tab, a cleared
  // cookie), apply the spec's restore rule once and re-render from the server.
  useEffect(() => {
    if (!scrolls) return;
    const stored = readStoredSelection();
    const wanted = pickSelected(scrolls, stored ?? selectedId);
    // Write both copies whenever either is stale: the server only sees the cookie, so restoring
    // from local storage without rewriting the cookie would re-render the old selection.
    if (wanted !== stored || wanted !== selectedId) storeSelection(wanted);
    if (wanted !== selectedId) navigate(".", { replace: true, preventScrollReset: true });
  }, [selectedId]); // once per server selection

  if (!scrolls) {
    return (
      <div className="picker" aria-busy="true">
        {Array.from({ length: WINDOW }, (_, i) => (
          <div key={i} className="picker-item skeleton-line" />
        ))}
      </div>
    );
  }
  if (feeds.length === 0) {
    return (
      <div className="picker-empty">
        <p className="empty-title">No Scrolls</p>
        <p className="muted">Create your first scroll to get started</p>
        <Link to="/scroll/new?type=feed" className="btn btn-block">
          Create Scroll
        </Link>
      </div>
    );
  }
  const visible = feeds.slice(start, start + WINDOW);
  function choose(id: string) {
    storeSelection(id);
    navigate("/");
  }
  return (
    <div className="picker" role="listbox" aria-label="Feed scrolls">
      <button
        type="button"
        className="picker-arrow"
        aria-label="Previous scrolls"
        disabled={start === 0}
        onClick={() => setStart((s) => Math.max(0, s - 1))}
      >
        ▲
      </button>
      {visible.map((s) => (
        <button
          key={s._id}
          type="button"
          role="option"
          aria-selected={s._id === selectedId}
          className={s._id === selectedId ? "picker-item selected" : "picker-item"}
          onClick={() => choose(s._id)}
          title={s.description || s.name}
        >
          <bdi>{s.name}</bdi>
        </button>
      ))}
      <button
        type="button"
        className="picker-arrow"
        aria-label="More scrolls"
        disabled={start + WINDOW >= feeds.length}
        onClick={() => setStart((s) => Math.min(feeds.length - WINDOW, s + 1))}
      >
        ▼
      </button>
    </div>
  );
}
