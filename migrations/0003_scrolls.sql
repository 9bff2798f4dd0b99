CREATE TABLE `scroll_echos` (
	`scroll_id` text NOT NULL,
	`echo_id` text NOT NULL,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`scroll_id`, `echo_id`),
	FOREIGN KEY (`scroll_id`) REFERENCES `scrolls`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- serves: GET /scroll/{id}/echos for a curation: newest-added first
CREATE INDEX `scroll_echos_added` ON `scroll_echos` (`scroll_id`,`added_at`,`echo_id`);--> statement-breakpoint
-- serves: echo delete cascade: the curations holding an echo
CREATE INDEX `scroll_echos_echo_id` ON `scroll_echos` (`echo_id`);--> statement-breakpoint
CREATE TABLE `scroll_follows` (
	`scroll_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`scroll_id`, `user_id`),
	FOREIGN KEY (`scroll_id`) REFERENCES `scrolls`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- serves: GET /scroll/all: the scrolls a user follows
CREATE INDEX `scroll_follows_user_id` ON `scroll_follows` (`user_id`,`scroll_id`);--> statement-breakpoint
CREATE TABLE `scrolls` (
	`id` text PRIMARY KEY NOT NULL,
	`creator_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`type` text NOT NULL,
	`is_private` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`tag_match_type` text DEFAULT 'any' NOT NULL,
	`included_tags` text DEFAULT '[]' NOT NULL,
	`excluded_tags` text DEFAULT '[]' NOT NULL,
	`authors` text DEFAULT '[]' NOT NULL,
	`sort_by` text DEFAULT 'newestFirst' NOT NULL,
	`sort_time_range` text DEFAULT 'allTime' NOT NULL,
	`exclude_liked_echos` integer DEFAULT false NOT NULL,
	`start_date` integer,
	`end_date` integer,
	`followers_count` integer DEFAULT 0 NOT NULL,
	`echos_count` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`creator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- serves: GET /scroll/all and profile scrolls: a creator's scrolls newest first
CREATE INDEX `scrolls_creator_id` ON `scrolls` (`creator_id`,`id`);--> statement-breakpoint
-- serves: community lists: public scrolls of a type, newest first
CREATE INDEX `scrolls_public_type` ON `scrolls` (`type`,`is_private`,`id`);