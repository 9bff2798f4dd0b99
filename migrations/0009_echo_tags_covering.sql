-- Feed streams read a tag's links in order and test each candidate's other tags and exclusions;
-- with the echo's tags copied onto its links, that test reads the index entry alone (decision 008).
DROP INDEX `echo_tags_tag_likes`;--> statement-breakpoint
ALTER TABLE `echo_tags` ADD `tags` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
UPDATE `echo_tags` SET `tags` = (SELECT e.`tags` FROM `echos` e WHERE e.`id` = `echo_tags`.`echo_id`);--> statement-breakpoint
-- serves: /echo/tag/{name} newest|oldest and feed streams by tag: a tag's echos in id order, with their tags
CREATE INDEX `echo_tags_tag_echo` ON `echo_tags` (`tag`,`echo_id`,`tags`);--> statement-breakpoint
-- serves: /echo/tag/{name}?orderBy=likes and most-liked feed streams by tag: likes, then newest, with tags
CREATE INDEX `echo_tags_tag_likes_tags` ON `echo_tags` (`tag`,`likes_count`,`echo_id`,`tags`);
