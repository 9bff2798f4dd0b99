import { useEffect, useRef, useState, type FormEvent } from "react";
import { api, charCount, toast } from "../../shared/index";
import { MAX_TAGS, MAX_WARNING, tooManyTagsMessage, type Echo } from "../schema";
import { CharCount, useComposer } from "./composer";
import { QuotedEcho } from "./quoted-echo";
import { WarningField } from "./warning-field";

/**
 * Quote (decision 027): one's own text above the echo quoted, shown as it will be embedded. A
 * quote is an echo: the post's limits, its #tags typed in the text, an optional warning — the
 * composer the post form, the reply box and the edit dialog share (composer.tsx).
 */
export function QuoteDialog({ echo, onQuoted, onClose }: { echo: Echo; onQuoted: (quote: Echo) => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const { content, over, empty, typedTags, remaining, textarea } = useComposer();
  const [warning, setWarning] = useState("");
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    ref.current?.showModal();
  }, []);
  const close = () => ref.current?.close();

  const tagCount = typedTags.length;
  const warningOver = charCount(warning.trim()) > MAX_WARNING;
  const blocked = empty || over || tagCount > MAX_TAGS || warningOver;

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
          <textarea {...textarea("quote-char-count")} rows={4} />
        </label>
        <CharCount id="quote-char-count" remaining={remaining} />
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
