import { useEffect, useState } from "react";
import { api } from "../../shared/index";
import type { UserRef } from "../schema";

/** Authors for a feed (spec §5): user search debounced 300 ms; chosen users are filtered out. */
export function AuthorPicker({ authors, onChange, max }: { authors: UserRef[]; onChange: (a: UserRef[]) => void; max: number }) {
  const [q, setQ] = useState("");
  const [results, setResults] = useState<UserRef[]>([]);

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
        type="search"
        value={q}
        disabled={full}
        placeholder={full ? `${max} authors maximum` : "Search users by name"}
        onChange={(e) => setQ(e.target.value)}
        autoComplete="off"
      />
      {offered.length > 0 && !full && (
        <ul className="search-results" role="listbox" aria-label="Matching users">
          {offered.map((u) => (
            <li key={u._id}>
              <button
                type="button"
                role="option"
                aria-selected={false}
                onClick={() => {
                  onChange([...authors, u]);
                  setQ("");
                  setResults([]);
                }}
              >
                @<bdi>{u.userName}</bdi>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
