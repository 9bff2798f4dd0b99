import { useEffect, useRef, useState } from "react";
import { Link, useRevalidator } from "react-router";
import { api, LoadMore, relativeTime, toast, usePagedList } from "../../shared/index";
import { EmptyState } from "../../shell/index";
import { NOTIFICATION_MESSAGES as M, notificationParts, type Notification, type NotificationPage } from "../schema";

/** Where a notification leads: the echo, the follower's profile, the scroll. */
function targetOf(n: Notification): string {
  if (n.echo) return `/echo/${n.echo._id}`;
  if (n.scroll) return `/scroll/${n.scroll._id}`;
  return `/user/${n.actor._id}`;
}

/** User text (the name, the quoted echo or scroll) is bidi-isolated, as everywhere (docs/security.md). */
function NotificationItem({ n }: { n: Notification }) {
  const { actor, more, action, quoted } = notificationParts(n);
  return (
    <li className={n.unread ? "notification unread" : "notification"}>
      <Link to={targetOf(n)} className="notification-link">
        {n.unread && <span className="visually-hidden">Unread: </span>}
        <strong>
          <bdi>{actor}</bdi>
          {more}
        </strong>{" "}
        {action}
        {quoted !== null && (
          <>
            {" “"}
            <bdi>{quoted}</bdi>”
          </>
        )}
      </Link>
      <time className="muted notification-time" dateTime={n.updatedAt} suppressHydrationWarning>
        {relativeTime(n.updatedAt)}
      </time>
    </li>
  );
}

/** /notifications: grouped notifications, newest first, "Load more" by cursor, "Mark all as read". */
export function NotificationsScreen({ page }: { page: NotificationPage }) {
  const [marking, setMarking] = useState(false);
  const revalidator = useRevalidator();
  const rows = useRef<HTMLUListElement>(null);
  const list = usePagedList<Notification>({
    first: { items: page.notifications, at: page.pagination },
    load: async (at) => {
      const next = await api<NotificationPage>(`/notifications?cursor=${encodeURIComponent(at?.nextCursor ?? "")}`, { fallback: M.loadFailed });
      return { items: next.notifications, at: next.pagination };
    },
    key: (n) => n._id,
  });
  const { items, reset, setItems } = list;
  // a fresh first page (after "Mark all as read", or a new visit) replaces what was shown
  useEffect(() => reset({ items: page.notifications, at: page.pagination }), [page]);

  async function markAllRead() {
    if (marking) return;
    setMarking(true);
    try {
      await api(`/notifications/read`, { method: "POST", fallback: M.markFailed });
      setItems((shown) => shown.map((n) => ({ ...n, unread: false })));
      // the bell (layout data) and the first page read again
      await revalidator.revalidate();
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setMarking(false);
    }
  }

  return (
    <div className="page notifications">
      <div className="page-header">
        <h1 className="page-title">Notifications</h1>
        {items.length > 0 && (
          <button type="button" className="btn" onClick={markAllRead}>
            {M.markAllRead}
          </button>
        )}
      </div>
      {items.length === 0 ? (
        <EmptyState title={M.empty} detail={M.emptyDetail} />
      ) : (
        <ul className="notification-list" ref={rows}>
          {items.map((n) => (
            <NotificationItem key={n._id} n={n} />
          ))}
        </ul>
      )}
      <LoadMore list={list} label={M.loadMore} rows={rows} />
    </div>
  );
}
