import { Link, useLocation, useNavigate } from "react-router";
import type { Echo } from "../schema";
import { EchoCard } from "./echo-card";

/** History state /new leaves on its way home: the echo just posted. */
export type PostedState = { postedEcho: Echo };

function postedEcho(state: unknown): Echo | null {
  return (state as Partial<PostedState> | null)?.postedEcho ?? null;
}

/**
 * After posting, home shows the selected feed, whose rules may leave the new echo out (decision in
 * docs/product-notes.md). Unless the feed's first page already shows it, the new echo is shown
 * above the feed with a link to its page, until dismissed.
 */
export function PostedEcho({ feedIds, viewerId }: { feedIds: readonly string[]; viewerId: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const echo = postedEcho(location.state);
  if (!echo || feedIds.includes(echo._id)) return null;
  // drop the state (replace) so a reload doesn't announce it again
  const dismiss = () => navigate(location, { replace: true, state: null });
  return (
    <section className="card posted-echo" aria-labelledby="posted-echo-title" data-testid="posted-echo">
      <div className="posted-echo-head">
        <h2 id="posted-echo-title">Your echo is posted</h2>
        <Link to={`/echo/${echo._id}`}>View</Link>
        <button type="button" className="btn btn-sm" onClick={dismiss}>
          Dismiss
        </button>
      </div>
      <p className="muted">It isn't part of the feed shown below.</p>
      <EchoCard echo={echo} viewerId={viewerId} />
    </section>
  );
}
