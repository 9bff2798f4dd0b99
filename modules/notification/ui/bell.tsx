import { Link } from "react-router";
import { bellLabel, shownUnread } from "../schema";

/**
 * The top bar's bell: a link to /notifications whose accessible name carries the unread count
 * ("Notifications, 3 unread"); the badge shows the same number to the eye. Kept tiny: it is on
 * every page's first load.
 */
export function NotificationBell({ unread }: { unread: number }) {
  return (
    // the bell itself is drawn by CSS (.bell::before): no emoji font needed, no bytes in the JS
    <Link to="/notifications" className="icon-btn bell" aria-label={bellLabel(unread)} title="Notifications">
      {unread > 0 && (
        <span className="bell-badge" aria-hidden="true">
          {shownUnread(unread)}
        </span>
      )}
    </Link>
  );
}
