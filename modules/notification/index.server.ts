// Server-only public face of the notification module.
export { listNotifications, markAllRead, mentionStatement, HIDDEN_ACTOR_WINDOW } from "./notification.server";
