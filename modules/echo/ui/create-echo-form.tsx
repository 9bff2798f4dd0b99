import { useEffect, useRef, useState, type FormEvent, type RefObject } from "react";
import { useBlocker, useNavigate } from "react-router";
import { api, charCount, toast } from "../../shared/index";
import { MAX_TAGS, MAX_WARNING, TAG_SUGGESTIONS, tooManyTagsMessage, type Echo } from "../schema";
import type { PostedState } from "./posted-echo";
import { CharCount, useComposer } from "./composer";
import { WarningField } from "./warning-field";
import { TagInput } from "./tag-input";

const DISCARD_DRAFT = "Leave this page? Your unposted echo will be lost.";

/** Ask before an unposted draft is lost: in-app navigation (confirm) and closing or reloading the tab. */
function useDraftGuard(dirty: boolean, posted: RefObject<boolean>) {
  // read at navigation time: the navigation right after a post happens before a re-render
  const blocker = useBlocker(() => dirty && !posted.current);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(DISCARD_DRAFT)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
}

/** /new (spec §5): content up to 1000 with a counter, up to 5 tags, Post → toast, clear, go to /. */
export function CreateEchoForm() {
  const navigate = useNavigate();
  const [tags, setTags] = useState<string[]>([]);
  // the #tags typed in the text are the echo's tags too, shown with the chosen ones and counted toward the 5
  const { content, setContent, remaining, over, empty, typedTags, textarea } = useComposer("", tags);
  const [warning, setWarning] = useState("");
  const [posting, setPosting] = useState(false);
  // said in the form too: a toast alone is lost when offline (its code may not have loaded)
  const [failure, setFailure] = useState<string | null>(null);
  const posted = useRef(false);
  useDraftGuard(content.trim().length > 0 || tags.length > 0, posted);
  const tagCount = tags.length + typedTags.length;
  const tooManyTags = tagCount > MAX_TAGS;
  const warningOver = charCount(warning.trim()) > MAX_WARNING;
  const blocked = over || tooManyTags || warningOver;
  // why Post is disabled, for the button's description (empty text needs no words)
  const reasons = [over && "char-count", tooManyTags && "tag-limit"].filter(Boolean).join(" ") || undefined;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (empty || posting || blocked) return;
    setPosting(true);
    setFailure(null);
    try {
      const { echo } = await api<{ echo: Echo }>("/echo/post", { method: "POST", body: { content, tags, ...(warning.trim() && { warning }) }, fallback: "Failed to post echo" });
      toast.success("Echo posted successfully");
      setContent("");
      setTags([]);
      setWarning("");
      // home shows the new echo even when the selected feed leaves it out (posted-echo.tsx)
      const state: PostedState = { postedEcho: echo };
      posted.current = true; // the draft is saved: leaving needs no confirmation
      navigate("/", { state });
    } catch (error) {
      setFailure((error as Error).message);
      toast.error((error as Error).message);
    } finally {
      setPosting(false);
    }
  }

  return (
    <form className="card create-echo-form" onSubmit={onSubmit}>
      <label className="field">
        <span>What's on your mind?</span>
        <textarea {...textarea("char-count")} rows={6} placeholder="Share your thoughts..." />
      </label>
      <CharCount id="char-count" remaining={remaining} testId="char-count" />
      <TagInput
        id="echo-tags"
        label={`Tags (${tagCount}/${MAX_TAGS})`}
        tags={tags}
        fromText={typedTags}
        onChange={setTags}
        max={MAX_TAGS}
        suggestions={TAG_SUGGESTIONS}
        suggestionCount={8}
        placeholder="Add tags with space, comma or Enter"
      />
      {tooManyTags && (
        <p className="field-error" id="tag-limit" role="alert">
          {`Too many tags: ${tooManyTagsMessage(tagCount)}. Remove ${tagCount - MAX_TAGS} to post.`}
        </p>
      )}
      <WarningField value={warning} onChange={setWarning} over={warningOver} />
      {warningOver && (
        <p className="field-error" role="alert">
          {`The warning is over ${MAX_WARNING} characters: shorten it to post.`}
        </p>
      )}
      {failure && (
        <div className="form-failure" role="alert">
          <p>{failure}</p>
          <button type="submit" className="btn" disabled={posting}>
            Retry
          </button>
        </div>
      )}
      <div className="form-actions">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={empty || posting || blocked}
          aria-describedby={reasons}
        >
          {posting ? "Posting..." : "Post"}
        </button>
      </div>
    </form>
  );
}
