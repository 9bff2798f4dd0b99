-- Deleting an echo no longer cascades to the Following timelines (issue 28, decision 013): as a
-- cascade, an echo in N timelines read ~3 rows each inside the delete's request (3,566 rows for
-- 1,166 followers). Its rows now leave through the change stream in bounded slices (an
-- `unfanout` message, modules/echo/timeline.server.ts), and a page never shows them meanwhile
-- (it joins the echo). The owner's cascade stays. SQLite cannot drop a foreign key, so the table
-- is rebuilt, WITHOUT ROWID as in 0012 (two b-tree entries per row), rows kept.
CREATE TABLE `timeline_entries_new` (
	`owner_id` text NOT NULL,
	`echo_id` text NOT NULL,
	PRIMARY KEY(`owner_id`, `echo_id`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `timeline_entries_new` (`owner_id`, `echo_id`) SELECT `owner_id`, `echo_id` FROM `timeline_entries`;
--> statement-breakpoint
DROP TABLE `timeline_entries`;
--> statement-breakpoint
ALTER TABLE `timeline_entries_new` RENAME TO `timeline_entries`;
--> statement-breakpoint
-- serves: an echo's rows in every follower's timeline (the `unfanout` slices, the live check)
CREATE INDEX `timeline_entries_echo_id` ON `timeline_entries` (`echo_id`);
