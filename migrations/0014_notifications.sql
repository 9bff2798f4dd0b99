-- Notifications (issue 18): someone liked your echo, followed you, followed your scroll or
-- mentioned you. docs/decisions/015-notifications.md explains the model.
--
-- `notifications` holds one row per action (the truth); `notification_groups` one row per
-- (recipient, kind, group) with its actor count and newest actor (what a page shows); the user's
-- unread count is a counter on `users`. All three are kept by triggers in the same transaction as
-- the action (a like, a follow, an echo post with mentions) and its undoing, cascades included,
-- like the counters of 0002: a like storm or an account deletion leaves them exact.
ALTER TABLE `users` ADD `notifications_read_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `unread_notifications` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TABLE `notifications` (
	`recipient_id` text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	-- 'like' | 'follow' | 'scroll_follow' | 'mention'
	`kind` text NOT NULL,
	-- what the action groups under: the echo (like, mention), the scroll (scroll_follow), the UTC
	-- day of the follow (follow)
	`group_key` text NOT NULL,
	`actor_id` text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	-- the echo or scroll it is about: deleting it deletes the notification (cascade)
	`echo_id` text REFERENCES echos(id) ON DELETE CASCADE,
	`scroll_id` text REFERENCES scrolls(id) ON DELETE CASCADE,
	`created_at` integer NOT NULL,
	-- A group's actions in time order: the key serves undoing one (the source row's time is the
	-- notification's) and finding a group's newest actor once its newest one left, with no other
	-- index. One per actor and group: the like, follow and scroll follow rows are unique, and a
	-- post's mentions are distinct users.
	PRIMARY KEY (`recipient_id`, `kind`, `group_key`, `created_at`, `actor_id`)
);--> statement-breakpoint
-- serve the cascades of an account, echo and scroll deletion (partial: a follow has neither an
-- echo nor a scroll, a like no scroll — no index entry to write for them)
CREATE INDEX `notifications_actor` ON `notifications` (`actor_id`);--> statement-breakpoint
CREATE INDEX `notifications_echo` ON `notifications` (`echo_id`) WHERE echo_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `notifications_scroll` ON `notifications` (`scroll_id`) WHERE scroll_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `notification_groups` (
	`recipient_id` text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	`kind` text NOT NULL,
	`group_key` text NOT NULL,
	`actor_count` integer NOT NULL,
	`latest_actor_id` text NOT NULL,
	`latest_at` integer NOT NULL,
	`echo_id` text,
	`scroll_id` text,
	PRIMARY KEY (`recipient_id`, `kind`, `group_key`)
);--> statement-breakpoint
-- serves: GET /api/notifications, a recipient's groups newest first by keyset
CREATE INDEX `notification_groups_latest` ON `notification_groups` (`recipient_id`,`latest_at`,`kind`,`group_key`);--> statement-breakpoint
-- A notification joins its group (made on first use) and becomes the group's newest actor.
CREATE TRIGGER notifications_after_insert AFTER INSERT ON notifications BEGIN
  INSERT INTO notification_groups (recipient_id, kind, group_key, actor_count, latest_actor_id, latest_at, echo_id, scroll_id)
  VALUES (NEW.recipient_id, NEW.kind, NEW.group_key, 1, NEW.actor_id, NEW.created_at, NEW.echo_id, NEW.scroll_id)
  ON CONFLICT DO UPDATE SET
    actor_count = actor_count + 1,
    latest_actor_id = CASE WHEN excluded.latest_at >= latest_at THEN excluded.latest_actor_id ELSE latest_actor_id END,
    latest_at = MAX(latest_at, excluded.latest_at);
END;
--> statement-breakpoint
-- Its last notification gone, the group goes; otherwise the newest remaining actor leads it.
CREATE TRIGGER notifications_after_delete AFTER DELETE ON notifications BEGIN
  DELETE FROM notification_groups
  WHERE recipient_id = OLD.recipient_id AND kind = OLD.kind AND group_key = OLD.group_key AND actor_count <= 1;
  UPDATE notification_groups SET
    actor_count = actor_count - 1,
    latest_actor_id = (SELECT actor_id FROM notifications n
      WHERE n.recipient_id = OLD.recipient_id AND n.kind = OLD.kind AND n.group_key = OLD.group_key
      ORDER BY n.created_at DESC, n.actor_id DESC LIMIT 1),
    latest_at = (SELECT MAX(created_at) FROM notifications n
      WHERE n.recipient_id = OLD.recipient_id AND n.kind = OLD.kind AND n.group_key = OLD.group_key)
  WHERE recipient_id = OLD.recipient_id AND kind = OLD.kind AND group_key = OLD.group_key;
END;
--> statement-breakpoint
-- The unread count: groups whose newest action is after the recipient last marked all read.
CREATE TRIGGER notification_groups_after_insert AFTER INSERT ON notification_groups BEGIN
  UPDATE users SET unread_notifications = unread_notifications + 1
  WHERE id = NEW.recipient_id AND NEW.latest_at > notifications_read_at;
END;
--> statement-breakpoint
CREATE TRIGGER notification_groups_after_update AFTER UPDATE OF latest_at ON notification_groups BEGIN
  UPDATE users SET unread_notifications = unread_notifications
    + (NEW.latest_at > notifications_read_at) - (OLD.latest_at > notifications_read_at)
  WHERE id = NEW.recipient_id;
END;
--> statement-breakpoint
CREATE TRIGGER notification_groups_after_delete AFTER DELETE ON notification_groups BEGIN
  UPDATE users SET unread_notifications = unread_notifications - 1
  WHERE id = OLD.recipient_id AND OLD.latest_at > notifications_read_at;
END;
--> statement-breakpoint
-- The actions. Never for your own: liking your echo, following your scroll.
CREATE TRIGGER likes_notify_insert AFTER INSERT ON likes BEGIN
  INSERT INTO notifications (recipient_id, kind, group_key, actor_id, echo_id, created_at)
  SELECT author_id, 'like', id, NEW.user_id, id, NEW.created_at FROM echos
  WHERE id = NEW.echo_id AND author_id <> NEW.user_id
  ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
-- (when the echo itself is being deleted its notifications go by the echo_id cascade)
CREATE TRIGGER likes_notify_delete AFTER DELETE ON likes BEGIN
  DELETE FROM notifications
  WHERE recipient_id = (SELECT author_id FROM echos WHERE id = OLD.echo_id)
    AND kind = 'like' AND group_key = OLD.echo_id AND created_at = OLD.created_at AND actor_id = OLD.user_id;
END;
--> statement-breakpoint
-- follows group by the UTC day they happened on
CREATE TRIGGER user_follows_notify_insert AFTER INSERT ON user_follows WHEN NEW.follower_id <> NEW.followee_id BEGIN
  INSERT INTO notifications (recipient_id, kind, group_key, actor_id, created_at)
  VALUES (NEW.followee_id, 'follow', CAST(NEW.created_at / 86400000 AS TEXT), NEW.follower_id, NEW.created_at)
  ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER user_follows_notify_delete AFTER DELETE ON user_follows BEGIN
  DELETE FROM notifications
  WHERE recipient_id = OLD.followee_id AND kind = 'follow'
    AND group_key = CAST(OLD.created_at / 86400000 AS TEXT) AND created_at = OLD.created_at AND actor_id = OLD.follower_id;
END;
--> statement-breakpoint
CREATE TRIGGER scroll_follows_notify_insert AFTER INSERT ON scroll_follows BEGIN
  INSERT INTO notifications (recipient_id, kind, group_key, actor_id, scroll_id, created_at)
  SELECT creator_id, 'scroll_follow', id, NEW.user_id, id, NEW.created_at FROM scrolls
  WHERE id = NEW.scroll_id AND creator_id <> NEW.user_id
  ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER scroll_follows_notify_delete AFTER DELETE ON scroll_follows BEGIN
  DELETE FROM notifications
  WHERE recipient_id = (SELECT creator_id FROM scrolls WHERE id = OLD.scroll_id)
    AND kind = 'scroll_follow' AND group_key = OLD.scroll_id AND created_at = OLD.created_at AND actor_id = OLD.user_id;
END;
