import { useState, type KeyboardEvent } from "react";
import { isValidTag, normalizeTag, TAG_RULE_MESSAGE } from "../schema";

type Props = {
  label: string;
  tags: string[];
  onChange: (tags: string[]) => void;
  max?: number;
  suggestions?: readonly string[];
  suggestionCount?: number;
  showSuggestions?: boolean;
  placeholder?: string;
  id: string;
  /** tags the echo's text already names (#tag): shown, counted toward `max`, not removable here */
  fromText?: readonly string[];
};

/**
 * Tag entry (spec §5): space, comma or Enter adds; Backspace on an empty input removes the last;
 * each tag trimmed, lower-cased, leading '#' removed, no duplicates or empties; disabled at max.
 */
export function TagInput({ label, tags, onChange, max, suggestions = [], suggestionCount = 8, showSuggestions = true, placeholder, id, fromText = [] }: Props) {
  const [text, setText] = useState("");
  const [hint, setHint] = useState<string | null>(null);
  const count = tags.length + fromText.length;
  const full = max !== undefined && count >= max;

  function add(raw: string) {
    const tag = normalizeTag(raw);
    setText("");
    if (!tag || tags.includes(tag) || fromText.includes(tag) || full) return;
    if (!isValidTag(tag)) {
      setHint(TAG_RULE_MESSAGE);
      return;
    }
    setHint(null);
    onChange([...tags, tag]);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "Enter" || e.key === " " || e.key === ",") {
      e.preventDefault();
      add(text);
    } else if (e.key === "Backspace" && text === "" && tags.length > 0) {
      onChange(tags.slice(0, -1));
    }
  }

  function onInput(value: string) {
    // pasted or typed separators add what comes before them
    if (/[\s,]/.test(value)) {
      const parts = value.split(/[\s,]+/);
      const rest = parts.pop() ?? "";
      let next = tags;
      for (const part of parts) {
        const tag = normalizeTag(part);
        const room = max === undefined || next.length + fromText.length < max;
        if (tag && isValidTag(tag) && !next.includes(tag) && !fromText.includes(tag) && room) next = [...next, tag];
      }
      if (next !== tags) onChange(next);
      setText(rest);
      return;
    }
    setText(value);
  }

  const offered = suggestions.filter((s) => !tags.includes(s) && !fromText.includes(s)).slice(0, suggestionCount);

  return (
    <div className="field">
      <label htmlFor={id}>
        <span>{label}</span>
      </label>
      <div className="tag-box">
        {tags.map((tag) => (
          <span key={tag} className="tag-chip removable">
            #<bdi>{tag}</bdi>
            <button type="button" aria-label={`Remove ${tag}`} onClick={() => onChange(tags.filter((t) => t !== tag))}>
              ×
            </button>
          </span>
        ))}
        {fromText.map((tag) => (
          <span key={`text:${tag}`} className="tag-chip from-text" title="Typed in the text">
            #<bdi>{tag}</bdi>
            <span className="visually-hidden"> (typed in the text)</span>
          </span>
        ))}
        <input
          id={id}
          value={text}
          disabled={full}
          placeholder={full ? `${max} tags maximum` : (placeholder ?? "Add a tag")}
          onChange={(e) => onInput(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => text && add(text)}
          autoComplete="off"
        />
      </div>
      {hint && <span className="field-error">{hint}</span>}
      {showSuggestions && !full && offered.length > 0 && (
        <div className="suggestions" aria-label="Suggested tags">
          {offered.map((s) => (
            <button key={s} type="button" className="tag-chip suggestion" onClick={() => add(s)}>
              #{s}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
