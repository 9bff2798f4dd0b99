import { useEffect, useState, type KeyboardEvent } from "react";
import { api } from "../../shared/index";
import type { UserRef } from "../schema";

/**
 * Authors for a feed (spec §5): user search debounced 300 ms; chosen users are filtered out.
 * A combobox: arrow keys move through the suggestions, Enter picks, Escape closes.
 */
export function AuthorPicker({ authors, onChange, max }: { authors: UserRef[]; onChange: (a: UserRef[]) => void; max: number }) {
  const [q, setQ] = useState("");
  const [results, setResults] = useState<UserRef[]>([]);
  const [expanded, setExpanded] = useState(false);
  // the highlighted suggestion (-1: none); a new result list starts unhighlighted
  const [active, setActive] = useState(-1);
  useEffect(() => setActive(-1), [results]);

  useEffect(() => {
    const term = q.trim();
    if (!term) {
      setResults([]);
      return;
    }
    let cancelled = false;
    const timer = setTimeout(async () => {
      try {
        const res = await api<{ users: UserRef[] }>(`/search/users?q=${encodeURIComponent(term)}`, { fallback: "" });
        if (!cancelled) setResults(res.users);
      } catch {
        if (!cancelled) setResults([]); // a failed search shows an empty result (spec §8)
      }
    }, 300);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [q]);

  const offered = results.filter((u) => !authors.some((a) => a._id === u._id));
  const full = authors.length >= max;
  const open = expanded && offered.length > 0 && !full;
  const activeId = open && active >= 0 && active < offered.length ? `author-option-${offered[active]!._id}` : undefined;

  function pick(user: UserRef) {
    onChange([...authors, user]);
    setQ("");
    setResults([]);
  }

  // WAI-ARIA combobox with a listbox popup: focus stays in the input, the highlighted option is
  // aria-activedescendant; Enter never submits the feed form from here.
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const n = offered.length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!n) return;
      setExpanded(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (!open || i < 0 ? (step > 0 ? 0 : n - 1) : (i + step + n) % n));
    } else if (event.key === "Enter") {
      event.preventDefault();
      const chosen = open ? offered[active] : undefined;
      if (chosen) pick(chosen);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      setExpanded(false);
    }
  }

  return (
    <div className="field">
      <label htmlFor="author-search">
        <span>
          Authors ({authors.length}/{max})
        </span>
      </label>
      {authors.length > 0 && (
        <div className="chips">
          {authors.map((a) => (
            <span key={a._id} className="author-chip removable">
              @<bdi>{a.userName}</bdi>
              <button type="button" aria-label={`Remove ${a.userName}`} onClick={() => onChange(authors.filter((x) => x._id !== a._id))}>
                ×
              </button>
            </span>
          ))}
        </div>
      )}
      <input
        id="author-search"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls="author-results"
        aria-activedescendant={activeId}
        value={q}
        disabled={full}
        placeholder={full ? `${max} authors maximum` : "Search users by name"}
        onChange={(e) => {
          setQ(e.target.value);
          setExpanded(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setExpanded(false)}
        onFocus={() => setExpanded(true)}
        autoComplete="off"
      />
      <ul className="search-results" id="author-results" role="listbox" aria-label="Matching users" hidden={!open}>
        {open &&
          offered.map((u, i) => (
            <li
              key={u._id}
              id={`author-option-${u._id}`}
              role="option"
              aria-selected={i === active}
              // mousedown would blur the input (closing the list) before the click lands
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(u)}
            >
              @<bdi>{u.userName}</bdi>
            </li>
          ))}
      </ul>
    </div>
  );
}
