-- Viewer indexes (issues 27 and 32, docs/decisions/033-viewer-indexes.md): a feed index of one
-- rule for one viewer, whose entries leave out what that viewer does not see (first: the echos
-- they liked, for a rule that hides them), so their page reads one row an entry again. A viewer
-- index is a feed_indexes row like any other (its entries in feed_index_entries, its terms in
-- feed_rule_terms: posts reach it as they reach the shared index), keyed `v:<viewer>:<rule key>`;
-- `viewer_id` says whose it is (NULL: the rule's shared index).
ALTER TABLE `feed_indexes` ADD `viewer_id` text;--> statement-breakpoint
-- serves: a like's message (the liker's viewer indexes), eviction of a viewer's least recently read
CREATE INDEX `feed_indexes_viewer` ON `feed_indexes` (`viewer_id`, `updated_at`) WHERE viewer_id IS NOT NULL;
