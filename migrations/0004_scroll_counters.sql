-- Scroll counters kept exact by triggers, in the same transaction as the write (see 0002).
CREATE TRIGGER scrolls_after_insert AFTER INSERT ON scrolls BEGIN
  UPDATE users SET scrolls_count = scrolls_count + 1 WHERE id = NEW.creator_id;
END;
--> statement-breakpoint
CREATE TRIGGER scrolls_after_delete AFTER DELETE ON scrolls BEGIN
  UPDATE users SET scrolls_count = scrolls_count - 1 WHERE id = OLD.creator_id;
END;
--> statement-breakpoint
CREATE TRIGGER scroll_echos_after_insert AFTER INSERT ON scroll_echos BEGIN
  UPDATE scrolls SET echos_count = echos_count + 1 WHERE id = NEW.scroll_id;
END;
--> statement-breakpoint
CREATE TRIGGER scroll_echos_after_delete AFTER DELETE ON scroll_echos BEGIN
  UPDATE scrolls SET echos_count = echos_count - 1 WHERE id = OLD.scroll_id;
END;
--> statement-breakpoint
CREATE TRIGGER scroll_follows_after_insert AFTER INSERT ON scroll_follows BEGIN
  UPDATE scrolls SET followers_count = followers_count + 1 WHERE id = NEW.scroll_id;
END;
--> statement-breakpoint
CREATE TRIGGER scroll_follows_after_delete AFTER DELETE ON scroll_follows BEGIN
  UPDATE scrolls SET followers_count = followers_count - 1 WHERE id = OLD.scroll_id;
END;
--> statement-breakpoint
-- a scroll that turns private loses its followers: nobody follows a private scroll
CREATE TRIGGER scrolls_after_private AFTER UPDATE OF is_private ON scrolls WHEN NEW.is_private = 1 BEGIN
  DELETE FROM scroll_follows WHERE scroll_id = NEW.id;
END;
