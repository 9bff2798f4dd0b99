import { useState } from "react";
import type { Scroll } from "../schema";
import { setFollow } from "./scroll-actions";

/**
 * Follow / Unfollow for someone else's scroll (spec §4: disabled while working). Reads the
 * viewer's state from the scroll object itself, which every list carries, so it works wherever
 * a scroll is shown; `onChange` gets the scroll as the server returned it.
 */
export function FollowScrollButton({ scroll, onChange, inList = false }: { scroll: Scroll; onChange?: (next: Scroll) => void; inList?: boolean }) {
  const [current, setCurrent] = useState(scroll);
  const [working, setWorking] = useState(false);
  async function toggle() {
    setWorking(true);
    const next = await setFollow(current, !current.isFollowing);
    setWorking(false);
    if (next) {
      setCurrent(next);
      onChange?.(next);
    }
  }
  return (
    <button
      type="button"
      className={current.isFollowing ? "btn" : "btn btn-primary"}
      disabled={working}
      onClick={toggle}
      // in a list of cards each button names its scroll; on the scroll's own page the heading does
      aria-label={inList ? `${current.isFollowing ? "Unfollow" : "Follow"} ${current.name}` : undefined}
    >
      {current.isFollowing ? "Unfollow" : "Follow"}
    </button>
  );
}
