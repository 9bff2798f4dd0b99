// Server-only public face of the notification module.
export { listNotifications, markAllRead, mentionStatement } from "./notification.server";
