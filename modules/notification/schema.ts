// What a notification is on the wire (GET /api/notifications, docs/product-notes.md) and the
// sentence a person reads for it. Client-safe: the page and the bell use it.

export const NOTIFICATION_KINDS = ["like", "follow", "scroll_follow", "mention", "reply", "repost", "quote"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A group of actions of one kind on one thing (an echo, a scroll, a day's follows). */
export type Notification = {
  /** `<kind>:<group>`: stable while the group exists */
  _id: string;
  kind: NotificationKind;
  /** the newest actor of the group */
  actor: { _id: string; userName: string };
  /** how many people the group holds, the newest actor included */
  actorCount: number;
  /** the echo liked, mentioning you or replying to yours (like, mention, reply), its text cut to EXCERPT_CHARS */
  echo: { _id: string; excerpt: string } | null;
  /** the scroll followed (scroll_follow) */
  scroll: { _id: string; name: string } | null;
  /** newer than the last "Mark all as read" */
  unread: boolean;
  /** the newest action of the group, ISO 8601 */
  updatedAt: string;
};

export type NotificationPage = {
  notifications: Notification[];
  unreadCount: number;
  pagination: { limit: number; hasMore: boolean; nextCursor: string | null };
};

export const NOTIFICATIONS_PER_PAGE = 20;
/** The unread count the bell shows in full; above it, "99+". */
export const MAX_SHOWN_UNREAD = 99;
export const EXCERPT_CHARS = 60;

export const NOTIFICATION_MESSAGES = {
  empty: "No notifications yet",
  emptyDetail: "When someone likes your echos, follows you or your scrolls, mentions you, replies to, reposts or quotes your echos, it shows here.",
  markAllRead: "Mark all as read",
  markFailed: "Failed to mark notifications as read",
  loadMore: "Load more",
  loadFailed: "Failed to load notifications",
};

/** "3", or "99+" past MAX_SHOWN_UNREAD. */
export const shownUnread = (count: number) => (count > MAX_SHOWN_UNREAD ? `${MAX_SHOWN_UNREAD}+` : String(count));

/** The bell's accessible name: it says the count, as the badge shows it. */
export const bellLabel = (count: number) => (count > 0 ? `Notifications, ${shownUnread(count)} unread` : "Notifications");

/** Cut to `chars` characters (code points, so no emoji is split), with "…" when cut. */
export function excerpt(text: string, chars = EXCERPT_CHARS): string {
  const points = Array.from(text);
  return points.length > chars ? `${points.slice(0, chars).join("").trimEnd()}…` : text;
}

/**
 * The sentence of a notification in its parts, so a screen can isolate the user text (the name,
 * the quoted echo or scroll) as it does everywhere: "alice" + " and 12 others" + " liked your
 * echo" + "…" (quoted).
 */
export function notificationParts(n: Pick<Notification, "kind" | "actor" | "actorCount" | "echo" | "scroll">) {
  const others = n.actorCount - 1;
  const more = others <= 0 ? "" : ` and ${others} ${others === 1 ? "other" : "others"}`;
  const said = {
    like: { action: "liked your echo", quoted: n.echo?.excerpt ?? "" },
    follow: { action: "followed you", quoted: null },
    scroll_follow: { action: "followed your scroll", quoted: n.scroll?.name ?? "" },
    mention: { action: "mentioned you in", quoted: n.echo?.excerpt ?? "" },
    reply: { action: "replied", quoted: n.echo?.excerpt ?? "" },
    // a repost's group is the reposted echo (quoted); a quote's is the quote, whose text is the news
    repost: { action: "reposted your echo", quoted: n.echo?.excerpt ?? "" },
    quote: { action: "quoted your echo", quoted: n.echo?.excerpt ?? "" },
  }[n.kind];
  return { actor: n.actor.userName, more, ...said };
}

/** The whole sentence: "alice and 12 others liked your echo “…”". */
export function notificationText(n: Notification): string {
  const { actor, more, action, quoted } = notificationParts(n);
  return `${actor}${more} ${action}${quoted === null ? "" : ` “${quoted}”`}`;
}
