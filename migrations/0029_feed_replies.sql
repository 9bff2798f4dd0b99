-- The feeds' `replies` rule option (decision 024, "Feeds"): a feed shows replies only when its
-- rule says so. Off by default, for every feed that exists too: a feed was a stream of posts
-- before replies came (migration 0021), and its index key stays valid (the canonical rule gains
-- `"replies":true` only when set). What it needs:
--   scrolls.replies            the rule's option
--   echo_tags.reply            "is a reply", copied on each tag link like `tags`
--   echo_tags_top_echo, echo_tags_top_likes, echos_top, echos_top_likes
--                              the tag streams' covering indexes and the echos' order indexes of
--                              top-level echos only (partial): a rule without replies walks them,
--                              so every entry it reads matches (a test marking replies as misses
--                              made every plain tag feed a windowed one: 15 of 20 and 219 rows
--                              for a reader who hides authors)
ALTER TABLE `scrolls` ADD `replies` integer DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE `echo_tags` ADD `reply` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `echo_tags` SET `reply` = 1 WHERE `echo_id` IN (SELECT `id` FROM `echos` WHERE `parent_id` IS NOT NULL);
--> statement-breakpoint
CREATE INDEX `echo_tags_top_echo` ON `echo_tags` (`tag`, `echo_id`, `tags`) WHERE reply = 0;
--> statement-breakpoint
CREATE INDEX `echo_tags_top_likes` ON `echo_tags` (`tag`, `likes_count`, `echo_id`, `tags`) WHERE reply = 0;
--> statement-breakpoint
CREATE INDEX `echos_top` ON `echos` (`id`) WHERE parent_id IS NULL;
--> statement-breakpoint
CREATE INDEX `echos_top_likes` ON `echos` (`likes_count`, `id`) WHERE parent_id IS NULL;
--> statement-breakpoint
-- every existing feed's rule now leaves replies out: their index entries go (the repair pass
-- would remove them too, a few indexes at a time)
DELETE FROM `feed_index_entries` WHERE `echo_id` IN (SELECT `id` FROM `echos` WHERE `parent_id` IS NOT NULL);
