// Server-only public face of the notification module.
export { listNotifications, markAllRead, mentionStatement, unreadCount } from "./notification.server";
