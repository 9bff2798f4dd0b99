import { useState, type ChangeEvent } from "react";
import { charCount, UNITS_PER_CHAR } from "../../shared/index";
import { MAX_CONTENT, textTags } from "../schema";

/**
 * What the post form, the reply box and the edit dialog share (one composer): the text, its
 * count in characters as a person and the server count them (an emoji is one), and the #tags
 * typed in it that are not among `chosenTags` (the server merges them into the echo's tags).
 */
export function useComposer(initial = "", chosenTags: readonly string[] = []) {
  const [content, setContent] = useState(initial);
  const remaining = MAX_CONTENT - charCount(content);
  return {
    content,
    setContent,
    remaining,
    over: remaining < 0,
    empty: content.trim().length === 0,
    typedTags: textTags(content).filter((tag) => !chosenTags.includes(tag)),
    /**
     * The textarea's value and bounds. maxLength counts UTF-16 units (an emoji is 2 to 14): only
     * the storage bound. Text over the limit in characters is kept, never cut (issue 29): the
     * count says by how much, and the form waits until it is trimmed.
     */
    textarea: (countId: string) => ({
      name: "content",
      value: content,
      maxLength: MAX_CONTENT * UNITS_PER_CHAR,
      "aria-invalid": remaining < 0 || undefined,
      "aria-describedby": countId,
      onChange: (e: ChangeEvent<HTMLTextAreaElement>) => setContent(e.target.value),
    }),
  };
}

/** The count under a composer's text, in words a screen reader announces as they change. */
export function CharCount({ id, remaining, testId }: { id: string; remaining: number; testId?: string }) {
  const over = -remaining;
  return (
    <p id={id} className={remaining < 0 ? "char-count over" : remaining < 50 ? "char-count warning" : "char-count"} aria-live="polite" data-testid={testId}>
      {remaining < 0
        ? `${over} ${over === 1 ? "character" : "characters"} over the ${MAX_CONTENT}-character limit: remove ${over === 1 ? "it" : "them"} to post`
        : `${remaining} characters remaining`}
    </p>
  );
}
