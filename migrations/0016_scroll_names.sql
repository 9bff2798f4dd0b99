-- Scroll lists read one row per scroll (issue 28, items 3 and 12; decision 007 "Scroll lists"):
-- the names a scroll object shows are stored with the scroll instead of being read per scroll
-- on every list. Before, each scroll of a list read its creator's row, its original's row and
-- its creator's (a fork), and one users row per rule author through json_each (a rule may name
-- 25): 59 public feeds naming 25 authors made /api/community/scrolls/public/feed?limit=100 read
-- 3,073 rows.
CREATE TABLE `scroll_authors` (
	`author_id` text NOT NULL,
	`scroll_id` text NOT NULL,
	PRIMARY KEY(`author_id`, `scroll_id`),
	FOREIGN KEY (`scroll_id`) REFERENCES `scrolls`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `scroll_authors_scroll_id` ON `scroll_authors` (`scroll_id`);--> statement-breakpoint
ALTER TABLE `scrolls` ADD `creator_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `scrolls` ADD `author_names` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `scrolls` ADD `forked_name` text;--> statement-breakpoint
ALTER TABLE `scrolls` ADD `forked_creator_id` text;--> statement-breakpoint
ALTER TABLE `scrolls` ADD `forked_creator_name` text;--> statement-breakpoint
ALTER TABLE `scrolls` ADD `forked_private` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- Backfill, in dependency order: creator names first (a fork copies its original's).
UPDATE `scrolls` SET `creator_name` = (SELECT `user_name` FROM `users` WHERE `users`.`id` = `scrolls`.`creator_id`);
--> statement-breakpoint
-- exactly what the read-time join answered: the rule's authors that still exist, in rule order
UPDATE `scrolls` SET `author_names` = (SELECT json_group_array(json_array(u.id, u.user_name))
  FROM json_each(`scrolls`.`authors`) j JOIN `users` u ON u.id = j.value) WHERE `authors` != '[]';
--> statement-breakpoint
INSERT OR IGNORE INTO `scroll_authors` (`author_id`, `scroll_id`)
  SELECT j.value, s.id FROM `scrolls` s, json_each(s.authors) j WHERE s.authors != '[]';
--> statement-breakpoint
UPDATE `scrolls` SET (`forked_name`, `forked_creator_id`, `forked_creator_name`, `forked_private`) =
  (SELECT o.name, o.creator_id, o.creator_name, o.is_private FROM `scrolls` o WHERE o.id = `scrolls`.`forked_from`)
  WHERE `forked_from` IS NOT NULL;
--> statement-breakpoint
-- scroll_authors follows each rule in the write's own transaction: a new scroll's authors…
CREATE TRIGGER scroll_authors_insert AFTER INSERT ON scrolls WHEN NEW.authors != '[]' BEGIN
  INSERT OR IGNORE INTO scroll_authors (author_id, scroll_id) SELECT value, NEW.id FROM json_each(NEW.authors);
END;
--> statement-breakpoint
-- …and an edited rule's (a scroll's delete removes its rows by cascade)
CREATE TRIGGER scroll_authors_edit AFTER UPDATE OF authors ON scrolls WHEN OLD.authors IS NOT NEW.authors BEGIN
  DELETE FROM scroll_authors WHERE scroll_id = NEW.id;
  INSERT OR IGNORE INTO scroll_authors (author_id, scroll_id) SELECT value, NEW.id FROM json_each(NEW.authors);
END;
--> statement-breakpoint
-- A deleted account's name leaves every rule naming it, as the read-time join did (the rule keeps
-- the id; the API then names it "unknown"): one indexed seek per such rule, in the deletion's
-- transaction. The account's own scrolls are gone by cascade already (their rows change nothing).
CREATE TRIGGER users_delete_author_names AFTER DELETE ON users BEGIN
  UPDATE scrolls SET author_names = (SELECT json_group_array(json(j.value)) FROM json_each(scrolls.author_names) j
      WHERE json_extract(j.value, '$[0]') != OLD.id)
    WHERE id IN (SELECT scroll_id FROM scroll_authors WHERE author_id = OLD.id);
  DELETE FROM scroll_authors WHERE author_id = OLD.id;
END;
--> statement-breakpoint
-- A fork shows its original's current name, and hides it from others once it is private: an
-- original's rename or privacy change is copied to its forks (scrolls_forked_from), only when it
-- has any. Its deletion clears the forks' forked_from (0011), which hides the rest.
CREATE TRIGGER scrolls_forks_follow_original AFTER UPDATE OF name, is_private ON scrolls
  WHEN NEW.fork_count > 0 AND (OLD.name IS NOT NEW.name OR OLD.is_private IS NOT NEW.is_private) BEGIN
  UPDATE scrolls SET forked_name = NEW.name, forked_private = NEW.is_private WHERE forked_from = NEW.id;
END;
