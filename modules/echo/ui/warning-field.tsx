import { UNITS_PER_CHAR } from "../../shared/index";
import { MAX_WARNING } from "../schema";

/** The optional content warning of a post or an edit (decision 025): one field for both forms. */
export function WarningField({ value, onChange, over }: { value: string; onChange: (value: string) => void; over: boolean }) {
  return (
    <label className="field">
      <span>Content warning (optional)</span>
      <input
        name="warning"
        value={value}
        maxLength={MAX_WARNING * UNITS_PER_CHAR}
        aria-invalid={over || undefined}
        placeholder="Hides the text until a reader opens it"
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
