// A form posted through a React Router fetcher (docs/architecture.md, "Mutating — the rule") reads
// its action's answer here: once, when the fetcher is idle again. A fetcher keeps its data until
// the next submission, so an effect on `fetcher.data` alone would run it again on every render.
import { useEffect, useRef } from "react";

/** What a page's action answers a form: an error message, or anything else for done. */
export type FormAnswer = { error?: string };

export function useFetcherAnswer<A extends FormAnswer>(fetcher: { state: string; data?: A }, onDone: (answer: A) => void, onError: (message: string) => void) {
  const handled = useRef<A | undefined>(undefined);
  useEffect(() => {
    const answer = fetcher.data;
    if (fetcher.state !== "idle" || !answer || handled.current === answer) return;
    handled.current = answer;
    if (answer.error) onError(answer.error);
    else onDone(answer);
  });
}
