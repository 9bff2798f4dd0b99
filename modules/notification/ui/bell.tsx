import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { bellLabel, shownUnread } from "../schema";

/** How often an open, visible page asks for the bell's count (issue 29; docs/product-notes.md). */
export const BELL_REFRESH_MS = 30_000;

/**
 * The top bar's bell: a link to /notifications whose accessible name carries the unread count
 * ("Notifications, 3 unread"); the badge shows the same number to the eye. Kept current while the
 * page is open (issue 29): every BELL_REFRESH_MS while the tab is visible, and when the tab comes
 * back, it asks `GET /api/notifications/unread` (one row); a rise is announced politely. Kept
 * tiny: it is on every page's first load.
 */
export function NotificationBell({ unread }: { unread: number }) {
  const [count, setCount] = useState(unread);
  const [said, setSaid] = useState("");
  const last = useRef(unread);
  // a navigation's fresh count (the layout's loader) wins
  useEffect(() => {
    last.current = unread;
    setCount(unread);
  }, [unread]);
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState !== "visible") return;
      fetch("/api/notifications/unread")
        .then((res) => (res.ok ? (res.json() as Promise<{ unreadCount: number }>) : null))
        .then((body) => {
          if (!body || body.unreadCount === last.current) return;
          if (body.unreadCount > last.current) setSaid(bellLabel(body.unreadCount));
          last.current = body.unreadCount;
          setCount(body.unreadCount);
        })
        .catch(() => undefined); // offline: the next tick tries again
    };
    const timer = setInterval(refresh, BELL_REFRESH_MS);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", refresh);
    };
  }, []);
  return (
    <>
      {/* the bell itself is drawn by CSS (.bell::before): no emoji font needed, no bytes in the JS */}
      <Link to="/notifications" className="icon-btn bell" aria-label={bellLabel(count)} title="Notifications">
        {count > 0 && (
          <span className="bell-badge" aria-hidden="true">
            {shownUnread(count)}
          </span>
        )}
      </Link>
      <span className="visually-hidden" role="status">
        {said}
      </span>
    </>
  );
}
