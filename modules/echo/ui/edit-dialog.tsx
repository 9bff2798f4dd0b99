import { useEffect, useRef, useState, type FormEvent } from "react";
import { api, charCount, toast, UNITS_PER_CHAR } from "../../shared/index";
import { textTags } from "../linkify";
import { MAX_CONTENT, MAX_TAGS, MAX_WARNING, tooManyTagsMessage, type Echo } from "../schema";
import { WarningField } from "./warning-field";
import { TagInput } from "./tag-input";

/**
 * Edit Echo (decision 025): the author rewrites text, tags and content warning, with the post's
 * limits; the version it replaces stays in the echo's history. `onSaved` gets the new version
 * (the card puts it in echo-store.ts, which this chunk does not import: home's JS keeps it inlined).
 */
export function EditDialog({ echo, onSaved, onClose }: { echo: Echo; onSaved: (echo: Echo) => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [content, setContent] = useState(echo.content);
  // the chosen tags: those the text does not name itself (those stay derived from the text)
  const [tags, setTags] = useState(() => echo.tags.map((t) => t.name).filter((t) => !textTags(echo.content).includes(t)));
  const [warning, setWarning] = useState(echo.warning ?? "");
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    ref.current?.showModal();
  }, []);
  const close = () => ref.current?.close();

  const remaining = MAX_CONTENT - charCount(content);
  const typedTags = textTags(content).filter((tag) => !tags.includes(tag));
  const tagCount = tags.length + typedTags.length;
  const warningOver = charCount(warning.trim()) > MAX_WARNING;
  const blocked = content.trim().length === 0 || remaining < 0 || tagCount > MAX_TAGS || warningOver;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (blocked || saving) return;
    setSaving(true);
    setFailure(null);
    try {
      const result = await api<{ echo: Echo }>(`/echo/${echo._id}/edit`, { method: "PATCH", body: { content, tags, warning }, fallback: "Failed to edit echo" });
      onSaved(result.echo);
      toast.success("Echo updated");
      close();
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <dialog ref={ref} className="dialog edit-dialog" onClose={onClose} aria-labelledby="edit-title">
      <form onSubmit={submit}>
        <h2 id="edit-title">Edit echo</h2>
        <label className="field">
          <span>Text</span>
          <textarea
            name="content"
            value={content}
            maxLength={MAX_CONTENT * UNITS_PER_CHAR}
            rows={5}
            aria-invalid={remaining < 0 || undefined}
            aria-describedby="edit-char-count"
            onChange={(e) => setContent(e.target.value)}
          />
        </label>
        <p id="edit-char-count" className={remaining < 0 ? "char-count over" : "char-count"} aria-live="polite">
          {remaining < 0 ? `${-remaining} characters over the ${MAX_CONTENT}-character limit` : `${remaining} characters remaining`}
        </p>
        <TagInput id="edit-tags" label={`Tags (${tagCount}/${MAX_TAGS})`} tags={tags} fromText={typedTags} onChange={setTags} max={MAX_TAGS} showSuggestions={false} />
        {tagCount > MAX_TAGS && (
          <p className="field-error" role="alert">
            {`Too many tags: ${tooManyTagsMessage(tagCount)}.`}
          </p>
        )}
        <WarningField value={warning} onChange={setWarning} over={warningOver} />
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
            {saving ? "Saving..." : "Save"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
