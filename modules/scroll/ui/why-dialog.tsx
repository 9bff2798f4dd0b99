import { useEffect, useId, useRef, useState } from "react";
import type { Echo } from "../../echo/index";
import { api } from "../../shared/index";
import type { Scroll, WhyAnswer } from "../schema";

type Feed = Pick<Scroll, "_id" | "name">;

/** What GET /api/scroll/all answers. */
type MyScrolls = { scrolls: Scroll[]; pagination: { nextCursor: string | null } };

/** The viewer's own feeds, from their scrolls (own and followed, newest first; at most 5 pages);
 * null while loading. */
function useOwnFeeds(viewerId: string | undefined): Feed[] | null {
  const [feeds, setFeeds] = useState<Feed[] | null>(null);
  useEffect(() => {
    if (!viewerId) return;
    let current = true;
    (async () => {
      const mine: Feed[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 5; page++) {
        const res: MyScrolls = await api<MyScrolls>(`/scroll/all?limit=12${cursor ? `&cursor=${cursor}` : ""}`, { fallback: "Failed to load your feeds" });
        mine.push(...res.scrolls.filter((s) => s.type === "feed" && s.creator._id === viewerId));
        cursor = res.pagination.nextCursor;
        if (!cursor) break;
      }
      if (current) setFeeds(mine);
    })().catch(() => current && setFeeds([]));
    return () => {
      current = false;
    };
  }, [viewerId]);
  return feeds;
}

/**
 * "Why am I seeing this?" (an echo in `feed`) and the creator's "why isn't it?" (an echo's page:
 * one of the viewer's own feeds, to choose). A modal dialog: focus moves in, Escape or Close shut
 * it and focus goes back to the echo's menu button. The answer is a polite live region, each
 * reason a list item that says in words whether it was met.
 */
export function WhyDialog({ echo, feed: given, viewerId, onClose }: { echo: Echo; feed?: Feed; viewerId?: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const chooserId = useId();
  const own = useOwnFeeds(given ? undefined : viewerId);
  const feeds = given ? [given] : own;
  const single = Boolean(given);
  const [feedId, setFeedId] = useState(given?._id ?? "");
  const [answer, setAnswer] = useState<{ feedId: string; why?: WhyAnswer; error?: string } | null>(null);

  useEffect(() => {
    ref.current?.showModal();
  }, []);

  useEffect(() => {
    if (!feedId) return;
    let current = true;
    api<WhyAnswer>(`/scroll/${feedId}/why/${echo._id}`, { fallback: "Failed to explain this echo" })
      .then((why) => current && setAnswer({ feedId, why }))
      .catch((error: Error) => current && setAnswer({ feedId, error: error.message }));
    return () => {
      current = false;
    };
  }, [feedId, echo._id]);

  const feed = feeds?.find((f) => f._id === feedId);
  const shown = answer?.feedId === feedId ? answer : null;
  return (
    <dialog ref={ref} className="dialog why-dialog" onClose={onClose} aria-labelledby={titleId}>
      <h2 id={titleId}>{single ? "Why am I seeing this?" : "Why isn't it in my feed?"}</h2>
      {feeds === null && <p className="muted">Loading your feeds...</p>}
      {feeds !== null && feeds.length === 0 && <p className="muted">You have no feeds yet.</p>}
      {!single && feeds !== null && feeds.length > 0 && (
        <div className="field">
          <label htmlFor={chooserId}>Feed</label>
          <select id={chooserId} value={feedId} onChange={(e) => setFeedId(e.target.value)}>
            <option value="">Choose one of your feeds</option>
            {feeds.map((f) => (
              <option key={f._id} value={f._id}>
                {f.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div role="status" data-testid="why-answer">
        {feedId && !shown && <p className="muted">Checking...</p>}
        {shown?.error && <p className="field-error">{shown.error}</p>}
        {shown?.why && feed && (
          <>
            <p>
              <strong>{shown.why.inFeed ? "In " : "Not in "}</strong>
              <bdi>{feed.name}</bdi>
            </p>
            <ul className="why-reasons" aria-label="Rules">
              {shown.why.reasons.map((r) => (
                <li key={r.rule} data-passed={r.passed}>
                  <span className="why-mark" aria-hidden="true">
                    {r.passed ? "✓" : "✗"}
                  </span>
                  <span className="visually-hidden">{r.passed ? "Meets: " : "Misses: "}</span>
                  {r.text}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
