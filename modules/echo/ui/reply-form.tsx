import { useEffect, useRef, useState, type FormEvent } from "react";
import { useLocation } from "react-router";
import { api, charCount, toast, UNITS_PER_CHAR } from "../../shared/index";
import { MAX_CONTENT, type Echo } from "../schema";

/** The address a card's Reply link opens: the echo's page with its reply box focused. */
export const REPLY_ANCHOR = "reply";

/**
 * The reply box under an echo (decision 024): a labelled textarea with the character count, and
 * Reply. `#reply` in the address (a card's Reply link) focuses it, so a keyboard user lands in it.
 * A reply's tags are the #tags typed in it, as a post's are.
 */
export function ReplyForm({ parent, onPosted }: { parent: Echo; onPosted: (echo: Echo) => void }) {
  const [content, setContent] = useState("");
  const [posting, setPosting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (location.hash === `#${REPLY_ANCHOR}`) box.current?.focus();
  }, [location.key, location.hash]);

  const remaining = MAX_CONTENT - charCount(content);
  const empty = content.trim().length === 0;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (empty || posting || remaining < 0) return;
    setPosting(true);
    setFailure(null);
    try {
      const { echo } = await api<{ echo: Echo }>(`/echo/${parent._id}/reply`, { method: "POST", body: { content, tags: [] }, fallback: "Failed to post reply" });
      setContent("");
      toast.success("Reply posted");
      onPosted(echo);
    } catch (error) {
      setFailure((error as Error).message);
      toast.error((error as Error).message);
    } finally {
      setPosting(false);
    }
  }

  return (
    <form className="card reply-form" onSubmit={onSubmit} aria-label="Reply">
      <label className="field">
        <span>
          Reply to @<bdi>{parent.author.userName}</bdi>
        </span>
        <textarea
          id={REPLY_ANCHOR}
          ref={box}
          name="content"
          value={content}
          maxLength={MAX_CONTENT * UNITS_PER_CHAR}
          rows={3}
          placeholder="Write your reply..."
          aria-invalid={remaining < 0 || undefined}
          aria-describedby="reply-count"
          onChange={(e) => setContent(e.target.value)}
        />
      </label>
      <p id="reply-count" className={remaining < 0 ? "char-count over" : "char-count"} aria-live="polite">
        {remaining < 0 ? `${-remaining} over the ${MAX_CONTENT}-character limit` : `${remaining} characters remaining`}
      </p>
      {failure && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={empty || posting || remaining < 0}>
          {posting ? "Replying..." : "Reply"}
        </button>
      </div>
    </form>
  );
}
