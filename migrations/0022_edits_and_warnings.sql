-- Edits with history and content warnings (issue 31, docs/decisions/025-edits-and-warnings.md).
-- An edit rewrites the echo's text, tags and warning in place (so every list, feed and count that
-- reads `echos` and `echo_tags` follows it) after copying the version it replaces to `echo_edits`,
-- all in one batch (modules/echo/edit.server.ts).
CREATE TABLE `echo_edits` (
	`echo_id` text NOT NULL,
	`version` integer NOT NULL,
	`content` text NOT NULL,
	`tags` text NOT NULL,
	`warning` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`echo_id`, `version`),
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `echos` ADD `edited_at` integer;--> statement-breakpoint
ALTER TABLE `echos` ADD `edits_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `echos` ADD `warning` text;
--> statement-breakpoint
-- Echo search follows an edit (0013 had no update trigger: echos were never edited): the echo's
-- row leaves the index and enters again with its new text and tags, in the edit's transaction.
CREATE TRIGGER echos_search_update AFTER UPDATE OF content, tags ON echos BEGIN
  DELETE FROM echo_search WHERE echo_search MATCH ('eid:"' || OLD.id || '"');
  INSERT INTO echo_search (body, tags, author, eid) SELECT content, tag_text, author_id, id FROM echo_search_source WHERE id = NEW.id;
END;
