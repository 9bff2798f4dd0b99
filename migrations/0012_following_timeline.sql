-- The Following timeline (issue 18, docs/decisions/013-following-timeline.md): one row per
-- follower and echo, written by fan-out on post (same batch as the echo) and by the backfill of a
-- follow (same batch as the follow); an unfollow removes the followee's rows. Deleting an echo,
-- its author or the timeline's owner removes the rows by cascade.
-- WITHOUT ROWID (drizzle cannot say so; a table rebuild must keep it): the primary key is the
-- table, so each fan-out row is two b-tree entries (this and the echo_id index), not three. D1
-- bills every entry written, and a post by an author with 50,000 followers writes 50,000 rows.
CREATE TABLE `timeline_entries` (
	`owner_id` text NOT NULL,
	`echo_id` text NOT NULL,
	PRIMARY KEY(`owner_id`, `echo_id`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- serves: the echo delete cascade (an echo's rows in every follower's timeline)
CREATE INDEX `timeline_entries_echo_id` ON `timeline_entries` (`echo_id`);
