-- The feed index (issue 27, docs/decisions/020-feed-index.md): feeds' first pages kept on write,
-- fed from the change stream (Cloudflare Queues), not by triggers and not inside a post's batch.
-- One index per canonical rule (identical rules share it: forks, the many copies of a rule).
CREATE TABLE `feed_indexes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	-- the canonical stored rule (JSON; sets sorted, "hide liked" left out: it is the viewer's)
	`rule_key` text NOT NULL,
	-- 'building' (backfill running: pages come from the engine) or 'ready'
	`state` text NOT NULL,
	-- backfill: the last echo id written, newest first (null: not started)
	`cursor` text,
	-- 1 when every match of the rule is in the index; else it holds the newest matches down to
	-- `floor` and deeper pages come from the engine
	`complete` integer DEFAULT 0 NOT NULL,
	`floor` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`checked_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `feed_indexes_rule_key` ON `feed_indexes` (`rule_key`);
--> statement-breakpoint
-- serves: reconciliation picks the indexes checked longest ago
CREATE INDEX `feed_indexes_checked` ON `feed_indexes` (`checked_at`);
--> statement-breakpoint
-- An index's entries: its page is a range of this primary key. No foreign keys: the index is a
-- derived store that may live in another database; deletes reach it through the change stream,
-- and a page's join to echos drops whatever a lost message left behind until the repair pass.
CREATE TABLE `feed_index_entries` (
	`index_id` integer NOT NULL,
	`echo_id` text NOT NULL,
	PRIMARY KEY(`index_id`, `echo_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- serves: an echo's delete message (its entries in every index)
CREATE INDEX `feed_index_entries_echo` ON `feed_index_entries` (`echo_id`);
--> statement-breakpoint
-- The rules' terms: what a new echo must carry for the rule to possibly match it — `a:<author>`
-- for a rule naming authors, else `t:<tag>` (every included tag of an any-of rule, one of an
-- all-of rule). A post reaches only the indexes of its own tags and author.
CREATE TABLE `feed_rule_terms` (
	`term` text NOT NULL,
	`index_id` integer NOT NULL,
	PRIMARY KEY(`term`, `index_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- A scroll's index (its rule's canonical key), written with the rule.
ALTER TABLE `scrolls` ADD `rule_key` text;
--> statement-breakpoint
-- serves: the repair pass's drop of indexes no scroll reads, and its search for unkeyed feeds
CREATE INDEX `scrolls_rule_key` ON `scrolls` (`rule_key`);
