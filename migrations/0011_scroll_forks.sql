-- Forks (issue 16): a fork names its original; deleting the original clears that (the fork keeps
-- its rules and just stops saying where they came from).
ALTER TABLE `scrolls` ADD `forked_from` text REFERENCES scrolls(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `scrolls` ADD `fork_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- serves: the ON DELETE SET NULL above (without it every scroll delete scans every scroll)
CREATE INDEX `scrolls_forked_from` ON `scrolls` (`forked_from`);--> statement-breakpoint
-- An original's fork count, kept exact by triggers in the same transaction as the fork's insert or
-- delete (like 0004's counters). A fork whose original is gone (forked_from NULL) changes nothing.
CREATE TRIGGER scrolls_fork_insert AFTER INSERT ON scrolls WHEN NEW.forked_from IS NOT NULL BEGIN
  UPDATE scrolls SET fork_count = fork_count + 1 WHERE id = NEW.forked_from;
END;
--> statement-breakpoint
CREATE TRIGGER scrolls_fork_delete AFTER DELETE ON scrolls WHEN OLD.forked_from IS NOT NULL BEGIN
  UPDATE scrolls SET fork_count = fork_count - 1 WHERE id = OLD.forked_from;
END;
