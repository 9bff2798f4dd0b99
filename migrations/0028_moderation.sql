-- Moderation (issue 32, docs/decisions/029-moderation.md): moderators (users.is_admin), what they
-- did to an account (users.mod_state: 1 limited, 2 suspended, with suspended_at for the 30-day
-- deletion), the audit log (moderation_actions, which the affected user also reads, with their one
-- appeal), the queue (report_cases: one per reported echo, kept by the trigger below, or per
-- appeal), and the one row every list reads to leave out hidden echos and limited or suspended
-- accounts (moderation_set; written by the actions in their own batch).
CREATE TABLE `moderation_actions` (
	`id` text PRIMARY KEY NOT NULL,
	`moderator_id` text NOT NULL,
	`moderator_name` text NOT NULL,
	`action` text NOT NULL,
	`target_user_id` text,
	`target_user_name` text,
	`echo_id` text,
	`case_id` text,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	`appeal` text,
	`appealed_at` integer
);
--> statement-breakpoint
CREATE INDEX `moderation_actions_target` ON `moderation_actions` (`target_user_id`,`id`);--> statement-breakpoint
CREATE TABLE `moderation_set` (
	`id` integer PRIMARY KEY NOT NULL,
	`entries` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `report_cases` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`echo_id` text,
	`user_id` text NOT NULL,
	`reports_count` integer DEFAULT 0 NOT NULL,
	`latest_reason` text NOT NULL,
	`latest_at` integer NOT NULL,
	`assignee_id` text,
	`resolved_at` integer,
	`resolved_by` text,
	`note` text,
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `report_cases_open` ON `report_cases` (`latest_at`,`id`) WHERE resolved_at IS NULL;--> statement-breakpoint
CREATE INDEX `report_cases_echo` ON `report_cases` (`echo_id`) WHERE echo_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `report_cases_user` ON `report_cases` (`user_id`,`latest_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `is_admin` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `mod_state` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `suspended_at` integer;--> statement-breakpoint
CREATE INDEX `users_suspended_at` ON `users` (`suspended_at`) WHERE suspended_at IS NOT NULL;
--> statement-breakpoint
-- A report opens (or reopens, with one more report) its echo's case: the queue groups by echo.
CREATE TRIGGER reports_after_insert_case AFTER INSERT ON reports BEGIN
  INSERT INTO report_cases (id, kind, echo_id, user_id, reports_count, latest_reason, latest_at)
  SELECT NEW.echo_id, 'echo', NEW.echo_id, e.author_id, 1, NEW.reason, NEW.created_at FROM echos e WHERE e.id = NEW.echo_id
  ON CONFLICT (id) DO UPDATE SET reports_count = reports_count + 1, latest_reason = excluded.latest_reason,
    latest_at = excluded.latest_at, resolved_at = NULL, resolved_by = NULL, note = NULL;
END;
--> statement-breakpoint
-- A deleted account leaves the moderation set (a suspension's deletion, or the user's own).
CREATE TRIGGER users_after_delete_moderation AFTER DELETE ON users
WHEN OLD.mod_state <> 0 BEGIN
  UPDATE moderation_set SET entries = json_remove(entries, '$."u:' || OLD.id || '"') WHERE id = 1;
END;
