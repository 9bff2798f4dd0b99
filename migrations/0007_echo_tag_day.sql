ALTER TABLE `echo_tags` ADD `day` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- per-day tag counts for recent (7-day) counts, kept by the tag links themselves
CREATE TRIGGER echo_tags_days_insert AFTER INSERT ON echo_tags BEGIN
  INSERT INTO tag_days (tag, day, count) VALUES (NEW.tag, NEW.day, 1)
    ON CONFLICT (tag, day) DO UPDATE SET count = count + 1;
  INSERT OR IGNORE INTO rank_dirty (key) VALUES ('t:' || NEW.tag);
END;
--> statement-breakpoint
CREATE TRIGGER echo_tags_days_delete AFTER DELETE ON echo_tags BEGIN
  UPDATE tag_days SET count = count - 1 WHERE tag = OLD.tag AND day = OLD.day;
  DELETE FROM tag_days WHERE tag = OLD.tag AND day = OLD.day AND count <= 0;
  INSERT OR IGNORE INTO rank_dirty (key) VALUES ('t:' || OLD.tag);
END;
