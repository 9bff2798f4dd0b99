CREATE TABLE `popular_echos` (
	`list` text NOT NULL,
	`echo_id` text NOT NULL,
	`score` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`list`, `echo_id`),
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- serves: GET /community/echos/popular on a KV miss, and the cron's trim: a list by score
CREATE INDEX `popular_echos_rank` ON `popular_echos` (`list`,`score`,`echo_id`);--> statement-breakpoint
-- serves: ranking cron: entries older than their period leave
CREATE INDEX `popular_echos_age` ON `popular_echos` (`list`,`created_at`);--> statement-breakpoint
CREATE TABLE `rank_dirty` (
	`key` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rank_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tag_days` (
	`tag` text NOT NULL,
	`day` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tag`, `day`)
);
--> statement-breakpoint
-- serves: ranking cron: tags whose oldest counted day left the 7-day window
CREATE INDEX `tag_days_day` ON `tag_days` (`day`);--> statement-breakpoint
CREATE TABLE `user_follows` (
	`follower_id` text NOT NULL,
	`followee_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`follower_id`, `followee_id`),
	FOREIGN KEY (`follower_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`followee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- serves: GET /profile/user/{id}/followers: who follows a user
CREATE INDEX `user_follows_followee` ON `user_follows` (`followee_id`,`follower_id`);--> statement-breakpoint
-- serves: trending tags: recent use, then all-time use
CREATE INDEX `tags_trending` ON `tags` (`recent_count`,`echo_count`);