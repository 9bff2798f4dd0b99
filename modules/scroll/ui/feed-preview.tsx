import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { EchoText, type Echo } from "../../echo/index";
import { api, followInAppLink } from "../../shared/index";

/** What POST /api/scroll/preview answers. */
export type FeedPreview = { echos: Echo[]; matchCount: number; matchCountExact: boolean };

/** Rules settle for this long before the preview asks again: typing a tag is one request. */
const DEBOUNCE_MS = 400;

/** "1,234 echos match", or a bound: "10,000+ echos match" (docs/decisions/012-preview-why-fork.md). */
export function matchText({ matchCount, matchCountExact }: Pick<FeedPreview, "matchCount" | "matchCountExact">): string {
  const n = `${matchCount.toLocaleString("en-US")}${matchCountExact ? "" : "+"}`;
  return `${n} ${matchCount === 1 && matchCountExact ? "echo matches" : "echos match"}`;
}

/**
 * The live preview beside the feed rules (/scroll/new, /scroll/{id}/edit): the first echos the
 * rule shows and how many match, asked again once the rule stops changing. The count is a polite
 * live region, so a screen reader hears it as the rules change; errors (a start after the end)
 * read as create's message.
 */
export function FeedPreviewPanel({ feedConfig }: { feedConfig: Record<string, unknown> }) {
  const key = JSON.stringify(feedConfig);
  const navigate = useNavigate();
  const [state, setState] = useState<{ key: string; preview?: FeedPreview; error?: string } | null>(null);

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      api<FeedPreview>("/scroll/preview", { method: "POST", body: { feedConfig: JSON.parse(key) }, fallback: "Failed to preview the feed" })
        .then((preview) => current && setState({ key, preview }))
        .catch((error: Error) => current && setState({ key, error: error.message }));
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key]);

  const stale = state?.key !== key;
  let status = "Loading preview...";
  if (state?.error) status = state.error;
  else if (state?.preview) status = matchText(state.preview);
  return (
    <section className="card feed-preview" aria-labelledby="feed-preview-title" aria-busy={stale}>
      <h2 id="feed-preview-title" className="section-title">
        Preview
      </h2>
      <p role="status" className={state?.error ? "feed-preview-count error-text" : "feed-preview-count"} data-testid="preview-count">
        {status}
      </p>
      {state?.preview && state.preview.echos.length === 0 && !state.error && (
        <p className="muted">No echos match your filters</p>
      )}
      {state?.preview && state.preview.echos.length > 0 && (
        <ul
          className={stale ? "feed-preview-list stale" : "feed-preview-list"}
          aria-label="Matching echos"
          // the echo text's links are plain <a>s (EchoText)
          onClick={(e) => followInAppLink(e, navigate)}
        >
          {state.preview.echos.map((echo) => (
            <li key={echo._id} data-testid="preview-echo">
              <Link to={`/user/${echo.author._id}`} className="echo-author">
                @<bdi>{echo.author.userName}</bdi>
              </Link>{" "}
              <span dir="auto">
                <EchoText content={echo.content} />
              </span>
              {echo.tags.length > 0 && (
                <span className="muted">
                  {" "}
                  {echo.tags.map((t) => (
                    <span key={t._id}>
                      #<bdi>{t.name}</bdi>{" "}
                    </span>
                  ))}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
