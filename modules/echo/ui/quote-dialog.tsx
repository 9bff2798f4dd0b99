import { useEffect, useRef, useState, type FormEvent } from "react";
import { api, charCount, toast, UNITS_PER_CHAR } from "../../shared/index";
import { textTags } from "../linkify";
import { MAX_CONTENT, MAX_TAGS, MAX_WARNING, tooManyTagsMessage, type Echo } from "../schema";
import { QuotedEcho } from "./quoted-echo";
import { WarningField } from "./warning-field";

/**
 * Quote (decision 027): one's own text above the echo quoted, shown as it will be embedded. A
 * quote is an echo: the post's limits, its #tags typed in the text, an optional warning.
 */
export function QuoteDialog({ echo, onQuoted, onClose }: { echo: Echo; onQuoted: (quote: Echo) => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [content, setContent] = useState("");
  const [warning, setWarning] = useState("");
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    ref.current?.showModal();
  }, []);
  const close = () => ref.current?.close();

  const remaining = MAX_CONTENT - charCount(content);
  const tagCount = textTags(content).length;
  const warningOver = charCount(warning.trim()) > MAX_WARNING;
  const blocked = content.trim().length === 0 || remaining < 0 || tagCount > MAX_TAGS || warningOver;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (blocked || saving) return;
    setSaving(true);
    setFailure(null);
    try {
      const result = await api<{ echo: Echo }>(`/echo/${echo._id}/quote`, { method: "POST", body: { content, warning }, fallback: "Failed to quote echo" });
      onQuoted(result.echo);
      toast.success("Quote posted");
      close();
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <dialog ref={ref} className="dialog edit-dialog" onClose={onClose} aria-labelledby="quote-title">
      <form onSubmit={submit}>
        <h2 id="quote-title">Quote echo</h2>
        <label className="field">
          <span>Your text</span>
          <textarea
            name="content"
            value={content}
            maxLength={MAX_CONTENT * UNITS_PER_CHAR}
            rows={4}
            aria-invalid={remaining < 0 || undefined}
            aria-describedby="quote-char-count"
            onChange={(e) => setContent(e.target.value)}
          />
        </label>
        <p id="quote-char-count" className={remaining < 0 ? "char-count over" : "char-count"} aria-live="polite">
          {remaining < 0 ? `${-remaining} characters over the ${MAX_CONTENT}-character limit` : `${remaining} characters remaining`}
        </p>
        {tagCount > MAX_TAGS && (
          <p className="field-error" role="alert">
            {`Too many tags: ${tooManyTagsMessage(tagCount)}.`}
          </p>
        )}
        <WarningField value={warning} onChange={setWarning} over={warningOver} />
        <QuotedEcho quoted={{ _id: echo._id, state: "ok", author: echo.author, content: echo.content, createdAt: echo.createdAt, ...(echo.warning && { warning: echo.warning }) }} quoteId="preview" />
        {failure && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={blocked || saving}>
            {saving ? "Posting..." : "Quote"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
