// Server-only public face of the notification module.
export { listNotifications, markAllRead, mentionStatement, HIDDEN_ACTOR_WINDOW } from "./notification.server";
export { consumeNoticeRefreshes, refreshActor, refreshEndedMutes, refreshRecipient, NOTICE_REFRESH_SLICE } from "./notice-shown.server";
