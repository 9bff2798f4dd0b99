-- A ready, incomplete feed index's near marker (issue 27, decision 020 "Deeper on demand"): the
-- entry EXTEND_AHEAD before its frontier. A reader's page past it asks the consumer to extend the
-- index by another slice, so pages past the first INDEX_CAP matches come from the index too.
-- Nullable, no backfill: an index without one asks once a page meets its frontier, and the repair
-- pass's check writes it.
ALTER TABLE `feed_indexes` ADD `near` text;--> statement-breakpoint
ALTER TABLE `feed_indexes` ADD `near_rank` integer;
