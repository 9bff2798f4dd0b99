ALTER TABLE `users` ADD `public_scrolls_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `users` SET `public_scrolls_count` = (SELECT COUNT(*) FROM `scrolls` s WHERE s.`creator_id` = `users`.`id` AND s.`is_private` = 0);
--> statement-breakpoint
-- A profile shows other people the number of public scrolls: kept exact by triggers, like
-- scrolls_count (0004), instead of counting a prolific creator's scrolls on every profile read.
CREATE TRIGGER scrolls_public_insert AFTER INSERT ON scrolls WHEN NEW.is_private = 0 BEGIN
  UPDATE users SET public_scrolls_count = public_scrolls_count + 1 WHERE id = NEW.creator_id;
END;
--> statement-breakpoint
CREATE TRIGGER scrolls_public_delete AFTER DELETE ON scrolls WHEN OLD.is_private = 0 BEGIN
  UPDATE users SET public_scrolls_count = public_scrolls_count - 1 WHERE id = OLD.creator_id;
END;
--> statement-breakpoint
CREATE TRIGGER scrolls_public_update AFTER UPDATE OF is_private ON scrolls WHEN NEW.is_private <> OLD.is_private BEGIN
  UPDATE users SET public_scrolls_count = public_scrolls_count + (CASE WHEN NEW.is_private = 0 THEN 1 ELSE -1 END)
    WHERE id = NEW.creator_id;
END;
