// Client-safe public face of the notification module.
export {
  NOTIFICATION_KINDS,
  NOTIFICATION_MESSAGES,
  NOTIFICATIONS_PER_PAGE,
  MAX_SHOWN_UNREAD,
  bellLabel,
  notificationText,
  type Notification,
  type NotificationKind,
  type NotificationPage,
} from "./schema";
export { NotificationBell } from "./ui/bell";
export { NotificationsScreen } from "./ui/notifications-screen";
