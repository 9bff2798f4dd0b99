import { useEffect, useRef, useState, type FormEvent } from "react";
import { api, charCount, toast } from "../../shared/index";
import { MAX_TAGS, MAX_WARNING, textTags, tooManyTagsMessage, type Echo } from "../schema";
import { CharCount, useComposer } from "./composer";
import type { EchoEdit } from "./echo-store";
import { WarningField } from "./warning-field";
import { TagInput } from "./tag-input";

/**
 * Edit Echo (decision 025): the author rewrites text, tags and content warning, with the post's
 * limits; the version it replaces stays in the echo's history. `onSaved` gets the new version
 * (the card puts it in echo-store.ts, which this chunk does not import: home's JS keeps it inlined).
 */
export function EditDialog({ echo, onSaved, onClose }: { echo: Echo; onSaved: (edit: EchoEdit) => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  // the chosen tags: those the text does not name itself (those stay derived from the text)
  const [tags, setTags] = useState(() => echo.tags.map((t) => t.name).filter((t) => !textTags(echo.content).includes(t)));
  const { content, over, empty, typedTags, remaining, textarea } = useComposer(echo.content, tags);
  const [warning, setWarning] = useState(echo.warning ?? "");
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    ref.current?.showModal();
  }, []);
  const close = () => ref.current?.close();

  const tagCount = tags.length + typedTags.length;
  const warningOver = charCount(warning.trim()) > MAX_WARNING;
  const blocked = empty || over || tagCount > MAX_TAGS || warningOver;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (blocked || saving) return;
    setSaving(true);
    setFailure(null);
    try {
      const result = await api<{ echo: Echo }>(`/echo/${echo._id}/edit`, { method: "PATCH", body: { content, tags, warning }, fallback: "Failed to edit echo" });
      // the patch only: every copy keeps its own like state and repost line (echo-store.ts)
      const { _id, content: text, tags: saved, editedAt, warning: cw, mutedWord } = result.echo;
      onSaved({ _id, content: text, tags: saved, editedAt, warning: cw, mutedWord });
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
          <textarea {...textarea("edit-char-count")} rows={5} />
        </label>
        <CharCount id="edit-char-count" remaining={remaining} />
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
