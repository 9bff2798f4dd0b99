-- Issue 28, what a lost message and an account deletion left unbounded (decision 032).
--
-- (1) Chains of change-stream steps that must reach their end: a post's fan-out past its first
-- followers (a `fanout` message per slice) and an account's removal (a `purge` message per
-- slice). The step that starts a chain writes its row, each step moves it, the last deletes it;
-- the repair pass replays a chain that has not moved for a while (its message was lost).
CREATE TABLE `stream_chains` (
	`key` text PRIMARY KEY NOT NULL,
	`change` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- serves: the repair pass's stalled chains, oldest first
CREATE INDEX `stream_chains_updated` ON `stream_chains` (`updated_at`);
--> statement-breakpoint
-- (2) Deleting an account marks it (gone for everyone at once: sign-in, profile, its echos) and
-- its rows leave through the change stream in bounded slices; the row goes last. As one cascade
-- the delete read and wrote every echo, like, follow and notification of the account in one
-- request.
ALTER TABLE `users` ADD `deleted_at` integer;
--> statement-breakpoint
-- serves: an account's shares and reports, a slice at a time (and the users FK's child lookup,
-- which without them scanned both tables)
CREATE INDEX `shares_user_id` ON `shares` (`user_id`,`echo_id`);
--> statement-breakpoint
CREATE INDEX `reports_user_id` ON `reports` (`user_id`,`echo_id`);
