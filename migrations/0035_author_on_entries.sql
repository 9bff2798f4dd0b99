-- Issue 32, decision 026 ("Full pages for heavy hiders"): a feed entry carries its echo's author,
-- so that a page steps over an author the viewer hides (a block, a mute) on the entry it already
-- read — one row — instead of reading the echo for it. A tag link's author is in its covering
-- indexes (the engine's tag streams read those alone); a feed index entry's is in its primary key's
-- b-tree (WITHOUT ROWID). An echo keeps its author, so nothing rewrites it after the insert.
-- Indexes are dropped first and built again after the copy (one pass over the links, not four).
DROP INDEX `echo_tags_tag_echo`;--> statement-breakpoint
DROP INDEX `echo_tags_tag_likes_tags`;--> statement-breakpoint
DROP INDEX `echo_tags_top_echo`;--> statement-breakpoint
DROP INDEX `echo_tags_top_likes`;--> statement-breakpoint
ALTER TABLE `echo_tags` ADD `author_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `echo_tags` SET `author_id` = (SELECT e.`author_id` FROM `echos` e WHERE e.`id` = `echo_tags`.`echo_id`);--> statement-breakpoint
CREATE INDEX `echo_tags_tag_echo` ON `echo_tags` (`tag`,`echo_id`,`tags`,`author_id`);--> statement-breakpoint
CREATE INDEX `echo_tags_tag_likes_tags` ON `echo_tags` (`tag`,`likes_count`,`echo_id`,`tags`,`author_id`);--> statement-breakpoint
CREATE INDEX `echo_tags_top_echo` ON `echo_tags` (`tag`,`echo_id`,`tags`,`author_id`) WHERE reply = 0;--> statement-breakpoint
CREATE INDEX `echo_tags_top_likes` ON `echo_tags` (`tag`,`likes_count`,`echo_id`,`tags`,`author_id`) WHERE reply = 0;--> statement-breakpoint
ALTER TABLE `feed_index_entries` ADD `author_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `feed_index_entries` SET `author_id` = ifnull((SELECT e.`author_id` FROM `echos` e WHERE e.`id` = `feed_index_entries`.`echo_id`), '');
--> statement-breakpoint
-- Issue 32, decision 029: a popular list's entries carry their author, so a limited or suspended
-- account's echos leave the ranked list itself (the index is read, covering, stepping over them).
DROP INDEX `popular_echos_rank`;--> statement-breakpoint
ALTER TABLE `popular_echos` ADD `author_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `popular_echos` SET `author_id` = ifnull((SELECT e.`author_id` FROM `echos` e WHERE e.`id` = `popular_echos`.`echo_id`), '');--> statement-breakpoint
CREATE INDEX `popular_echos_rank` ON `popular_echos` (`list`,`score`,`echo_id`,`author_id`);
