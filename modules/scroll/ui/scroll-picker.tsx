import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useLocation, useNavigate } from "react-router";
import { api } from "../../shared/index";
import type { Scroll } from "../schema";
import { ALL_ECHOS, FOLLOWING, pickSelected, readStoredSelection, storeSelection, useChooseFeed } from "./selection";

/** Spec §2: the picker shows 3 options at once (its height in CSS); the skeleton has as many. */
const WINDOW = 3;

type Option = { id: string; name: string; title: string };

/**
 * Sidebar picker of feed scrolls (spec §2): vertical, 3 at once, up and down arrows. An ARIA
 * listbox (single select, selection follows Enter/Space, not focus): one tab stop, the active
 * option tracked by aria-activedescendant, ↑/↓/Home/End to move, Enter or Space to choose,
 * Escape back to the chosen one. "All Echos" comes first, so the unfiltered home stays
 * reachable once the user has feeds; "Following" second, once the user follows anyone.
 * Every loaded option is in the list, which scrolls (wheel, touch, ▲/▼, the keys) inside a
 * 3-option frame (issue 29: it used to render only 3 and hide the rest). The choice is Home's
 * list, so it shows as selected on Home only: elsewhere the page is no feed choice.
 */
export function ScrollPicker({ scrolls, nextCursor, selected, selectedId, followsAnyone = false }: {
  scrolls: Scroll[] | null;
  /** the layout loads one page of scrolls; more come from GET /api/scroll/all on demand */
  nextCursor: string | null;
  /** the chosen feed, which may sit beyond the loaded page */
  selected: Scroll | null;
  selectedId: string | null;
  /** the viewer follows someone: "Following" is offered (and kept once chosen) */
  followsAnyone?: boolean;
}) {
  const navigate = useNavigate();
  const choose = useChooseFeed();
  const onHome = useLocation().pathname === "/";
  const list = useRef<HTMLDivElement>(null);
  const { loaded, loadMore, loading } = useMoreScrolls(scrolls, nextCursor);
  const feeds = loaded.filter((s) => s.type === "feed");
  if (selected && !feeds.some((s) => s._id === selected._id)) feeds.push(selected);
  const options: Option[] = [
    { id: ALL_ECHOS, name: "All Echos", title: "Every echo, newest first" },
    ...(followsAnyone || selectedId === FOLLOWING
      ? [{ id: FOLLOWING, name: "Following", title: "Your echos and those of the people you follow, newest first" }]
      : []),
    ...feeds.map((s) => ({ id: s._id, name: s.name, title: s.description || s.name })),
  ];
  const selectedIndex = Math.max(0, options.findIndex((o) => o.id === (selectedId ?? ALL_ECHOS)));
  const [active, setActive] = useState(selectedIndex);
  // the frame is at its top, at its end (nothing more to load): ▲ or ▼ is disabled
  const [ends, setEnds] = useState([true, false]);

  // The server chose from the cookie; if local storage says otherwise (another tab, a cleared
  // cookie), apply the spec's restore rule once and re-render from the server.
  useEffect(() => {
    if (!scrolls) return;
    const stored = readStoredSelection();
    // the server's pick may lie beyond the first page: it counts as one of the viewer's feeds
    const known = selected && !scrolls.some((s) => s._id === selected._id) ? [...scrolls, selected] : scrolls;
    const wanted = pickSelected(known, stored ?? selectedId, followsAnyone);
    // Write both copies whenever either is stale: the server only sees the cookie, so restoring
    // from local storage without rewriting the cookie would re-render the old selection.
    if (wanted !== stored || wanted !== selectedId) storeSelection(wanted);
    if (wanted !== selectedId) navigate(".", { replace: true, preventScrollReset: true });
  }, [selectedId]); // once per server selection

  // a new selection (or first page) from the server: the active option follows it; a further
  // page loaded on demand leaves it where the user is
  useEffect(() => setActive(selectedIndex), [selectedIndex, scrolls]);
  // the active option stays inside the frame; the list's own scrollTop, so the page never moves
  useEffect(() => {
    const frame = list.current;
    const option = frame?.children[active] as HTMLElement | undefined;
    if (!frame || !option) return;
    const top = option.offsetTop; // the frame is the options' offsetParent (position: relative)
    if (top < frame.scrollTop) frame.scrollTop = top;
    else if (top + option.offsetHeight > frame.scrollTop + frame.clientHeight) frame.scrollTop = top + option.offsetHeight - frame.clientHeight;
    edges(false);
  }, [active, scrolls, options.length]);

  if (!scrolls) {
    return (
      <div className="picker" aria-busy="true">
        {Array.from({ length: WINDOW }, (_, i) => (
          <div key={i} className="picker-item skeleton-line" />
        ))}
      </div>
    );
  }
  if (options.length === 1) {
    return (
      <div className="picker-empty">
        <p className="empty-title">No Scrolls</p>
        <p className="muted">Create your first scroll to get started</p>
        <a href="/scroll/new?type=feed" className="btn btn-block">
          Create Scroll
        </a>
      </div>
    );
  }

  function moveTo(index: number) {
    // moving past the last loaded option asks the server for the next page
    if (index >= options.length - 1 && loadMore) void loadMore();
    setActive(Math.max(0, Math.min(options.length - 1, index)));
  }

  function onKeyDown(event: KeyboardEvent) {
    const currentId = options[active]?.id ?? ALL_ECHOS;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(active + 1),
      ArrowUp: () => moveTo(active - 1),
      Home: () => moveTo(0),
      End: () => moveTo(options.length - 1),
      Enter: () => choose(currentId),
      " ": () => choose(currentId),
      // back to the chosen option; not stopped, so an open drawer closes too
      Escape: () => moveTo(selectedIndex),
    };
    const action = keys[event.key];
    if (!action) return;
    if (event.key !== "Escape") event.preventDefault();
    action();
  }

  /** ▲/▼ (mouse shortcuts) scroll the frame by one option; near its end the next page loads. */
  function slide(delta: number) {
    const frame = list.current;
    if (!frame) return;
    frame.scrollBy({ top: delta * (frame.clientHeight / WINDOW) });
    edges(delta > 0);
  }
  /** ▲/▼ follow the frame's position; scrolled near the end (`load`), the next page comes. */
  function edges(load: boolean) {
    const frame = list.current;
    if (!frame) return;
    const below = frame.scrollHeight - frame.scrollTop - frame.clientHeight;
    if (load && loadMore && below <= frame.clientHeight) void loadMore();
    setEnds([frame.scrollTop < 1, below < 1 && !loadMore]);
  }

  const optionId = (id: string) => `picker-option-${id}`;
  return (
    <div className="picker">
      {/* mouse shortcuts: keyboard users move with the arrow keys inside the listbox */}
      <button type="button" tabIndex={-1} className="picker-arrow" aria-label="Previous scrolls" disabled={ends[0]} onClick={() => slide(-1)}>
        ▲
      </button>
      <div
        ref={list}
        role="listbox"
        aria-label="Feed scrolls"
        tabIndex={0}
        className="picker-list"
        aria-busy={loading}
        aria-activedescendant={optionId(options[active]?.id ?? ALL_ECHOS)}
        onKeyDown={onKeyDown}
        onScroll={() => edges(true)}
      >
        {options.map((o, index) => {
          const chosen = onHome && index === selectedIndex;
          const classes = ["picker-item", chosen && "selected", index === active && "active"];
          return (
            <div
              key={o.id}
              id={optionId(o.id)}
              role="option"
              aria-selected={chosen}
              className={classes.filter(Boolean).join(" ")}
              onClick={() => choose(o.id)}
              title={o.title}
            >
              <bdi>{o.name}</bdi>
            </div>
          );
        })}
      </div>
      <button type="button" tabIndex={-1} className="picker-arrow" aria-label="More scrolls" disabled={ends[1]} onClick={() => slide(1)}>
        ▼
      </button>
    </div>
  );
}

/**
 * The viewer's scrolls beyond the layout's first page, fetched a page at a time by cursor when
 * the picker reaches its end; a new first page from the server starts over.
 */
function useMoreScrolls(first: Scroll[] | null, firstCursor: string | null) {
  const [more, setMore] = useState<{ scrolls: Scroll[]; cursor: string | null }>({ scrolls: [], cursor: firstCursor });
  const [loading, setLoading] = useState(false);
  useEffect(() => setMore({ scrolls: [], cursor: firstCursor }), [first, firstCursor]);
  const cursor = more.cursor;
  const loadMore =
    cursor && !loading
      ? async () => {
          setLoading(true);
          try {
            const page = await api<{ scrolls: Scroll[]; pagination: { nextCursor: string | null } }>(
              `/scroll/all?limit=10&cursor=${encodeURIComponent(cursor)}`,
              { fallback: "Failed to fetch scrolls" },
            );
            setMore((m) => ({ scrolls: [...m.scrolls, ...page.scrolls], cursor: page.pagination.nextCursor }));
          } catch {
            // the cursor stays: ▼ or ↓ at the end tries again
          } finally {
            setLoading(false);
          }
        }
      : null;
  return { loaded: [...(first ?? []), ...more.scrolls], loadMore, loading };
}
