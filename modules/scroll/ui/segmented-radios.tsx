import type { KeyboardEvent } from "react";

const STEP: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * A row of segment buttons that is an ARIA radio group: one Tab stop (the checked radio), the
 * arrow keys move to the next or previous choice and check it, wrapping at the ends (issue 29:
 * the Feed/Curation switch ignored them). Right and Left follow the page's reading direction.
 */
export function SegmentedRadios<T extends string>({ label, value, options, onChange }: {
  label: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange: (value: T) => void;
}) {
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    let step = STEP[event.key];
    if (!step) return;
    event.preventDefault();
    const horizontal = event.key === "ArrowLeft" || event.key === "ArrowRight";
    if (horizontal && getComputedStyle(event.currentTarget).direction === "rtl") step = -step;
    const index = options.findIndex(([v]) => v === value);
    const next = (index + step + options.length) % options.length;
    onChange(options[next]![0]);
    (event.currentTarget.children[next] as HTMLElement | undefined)?.focus();
  }
  return (
    <div className="segmented" role="radiogroup" aria-label={label} onKeyDown={onKeyDown}>
      {options.map(([v, text]) => (
        <button
          key={v}
          type="button"
          role="radio"
          aria-checked={v === value}
          tabIndex={v === value ? 0 : -1}
          className={v === value ? "active" : ""}
          onClick={() => onChange(v)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}
