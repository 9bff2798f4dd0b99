-- The Following timeline (issue 18, docs/decisions/013-following-timeline.md): one row per
-- follower and echo, written by fan-out on post (same batch as the echo) and by the backfill of a
-- follow (same batch as the follow); an unfollow removes the followee's rows. Deleting an echo,
-- its author or the timeline's owner removes the rows by cascade.
CREATE TABLE `timeline_entries` (
	`owner_id` text NOT NULL,
	`echo_id` text NOT NULL,
	`author_id` text NOT NULL,
	PRIMARY KEY(`owner_id`, `echo_id`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- serves: the echo delete cascade (an echo's rows in every follower's timeline)
CREATE INDEX `timeline_entries_echo_id` ON `timeline_entries` (`echo_id`);--> statement-breakpoint
-- serves: unfollow (one followee's rows in one timeline)
CREATE INDEX `timeline_entries_owner_author` ON `timeline_entries` (`owner_id`,`author_id`);
