-- The feed index serves every order (issue 27, docs/decisions/020-feed-index.md): an entry
-- carries its rank in the feed's order — the echo's like count for a most-liked rule, 0 for the
-- others — so a page is one range of the primary key, newest or oldest first or by likes.
-- The entries are derived (rebuilt from the store by the backfill), so the table is recreated
-- and every index built again: the repair pass resends a backfill that has not moved for a minute.
DROP TABLE `feed_index_entries`;
--> statement-breakpoint
CREATE TABLE `feed_index_entries` (
	`index_id` integer NOT NULL,
	-- the echo's like count for a most-liked rule (kept from the change stream's like messages), else 0
	`rank` integer DEFAULT 0 NOT NULL,
	`echo_id` text NOT NULL,
	PRIMARY KEY(`index_id`, `rank`, `echo_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- serves: an echo's delete and like messages, and the check that an echo is already in an index
CREATE INDEX `feed_index_entries_echo` ON `feed_index_entries` (`echo_id`, `index_id`);
--> statement-breakpoint
-- the frontier and the backfill's cursor in a most-liked order: (rank, echo id)
ALTER TABLE `feed_indexes` ADD `floor_rank` integer;
--> statement-breakpoint
ALTER TABLE `feed_indexes` ADD `cursor_rank` integer;
--> statement-breakpoint
-- how many entries the index keeps: 500 where the engine fills pages by itself past them, more
-- for a sparse rule (decided by its backfill from the density it met)
ALTER TABLE `feed_indexes` ADD `cap` integer DEFAULT 500 NOT NULL;
--> statement-breakpoint
UPDATE `feed_indexes` SET `state` = 'building', `cursor` = NULL, `complete` = 0, `floor` = NULL, `updated_at` = 0;
--> statement-breakpoint
-- oldest-first and most-liked rules are indexed now: the repair pass keys them
UPDATE `scrolls` SET `rule_key` = NULL WHERE `type` = 'feed' AND `rule_key` = '';
