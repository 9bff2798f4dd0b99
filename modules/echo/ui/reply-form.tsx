import { useEffect, useRef, useState, type FormEvent } from "react";
import { useLocation } from "react-router";
import { api, toast } from "../../shared/index";
import type { Echo } from "../schema";
import { CharCount, useComposer } from "./composer";

/** The address a card's Reply link opens: the echo's page with its reply box focused. */
export const REPLY_ANCHOR = "reply";

/**
 * The reply box under an echo (decision 024): a labelled textarea with the character count, and
 * Reply. `#reply` in the address (a card's Reply link) focuses it, so a keyboard user lands in it.
 * A reply's tags are the #tags typed in it, as a post's are.
 */
export function ReplyForm({ parent, onPosted }: { parent: Echo; onPosted: (echo: Echo) => void }) {
  const { content, setContent, remaining, over, empty, textarea } = useComposer();
  const [posting, setPosting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (location.hash === `#${REPLY_ANCHOR}`) box.current?.focus();
  }, [location.key, location.hash]);


  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (empty || posting || over) return;
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
        <textarea id={REPLY_ANCHOR} ref={box} {...textarea("reply-count")} rows={3} placeholder="Write your reply..." />
      </label>
      <CharCount id="reply-count" remaining={remaining} />
      {failure && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={empty || posting || over}>
          {posting ? "Replying..." : "Reply"}
        </button>
      </div>
    </form>
  );
}
