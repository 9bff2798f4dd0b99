CREATE TABLE `echo_tags` (
	`tag` text NOT NULL,
	`echo_id` text NOT NULL,
	`likes_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tag`, `echo_id`),
	FOREIGN KEY (`tag`) REFERENCES `tags`(`name`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- serves: echo delete cascade and like triggers: the tags of one echo
CREATE INDEX `echo_tags_echo_id` ON `echo_tags` (`echo_id`);--> statement-breakpoint
-- serves: GET /echo/tag/{name}?orderBy=likes: a tag's echos by likes, then newest
CREATE INDEX `echo_tags_tag_likes` ON `echo_tags` (`tag`,`likes_count`,`echo_id`);--> statement-breakpoint
CREATE TABLE `echos` (
	`id` text PRIMARY KEY NOT NULL,
	`author_id` text NOT NULL,
	`content` text NOT NULL,
	`tags` text NOT NULL,
	`created_at` integer NOT NULL,
	`likes_count` integer DEFAULT 0 NOT NULL,
	`shares_count` integer DEFAULT 0 NOT NULL,
	`comments_count` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- serves: GET /echo/all?user= and profile echos; author-only feeds: an author's echos newest first
CREATE INDEX `echos_author_id` ON `echos` (`author_id`,`id`);--> statement-breakpoint
-- serves: most-liked feeds without a tag rule: likes, then newest
CREATE INDEX `echos_likes` ON `echos` (`likes_count`,`id`);--> statement-breakpoint
CREATE TABLE `likes` (
	`echo_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`echo_id`, `user_id`),
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- serves: isLiked hydration and hide-liked feeds: a user's likes by echo
CREATE INDEX `likes_user_id` ON `likes` (`user_id`,`echo_id`);--> statement-breakpoint
CREATE TABLE `reports` (
	`echo_id` text NOT NULL,
	`user_id` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`echo_id`, `user_id`),
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `shares` (
	`echo_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`echo_id`, `user_id`),
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `stats` (
	`key` text PRIMARY KEY NOT NULL,
	`value` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tags` (
	`name` text PRIMARY KEY NOT NULL,
	`echo_count` integer DEFAULT 0 NOT NULL,
	`recent_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
-- serves: tag browser Most Popular
CREATE INDEX `tags_echo_count` ON `tags` (`echo_count`);