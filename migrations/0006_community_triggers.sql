-- Follow counters, and the change log the ranking cron reads (rank_dirty): every write that can
-- move a ranking marks what it touched, so a pass reads what changed, not the whole store.
CREATE TRIGGER user_follows_after_insert AFTER INSERT ON user_follows BEGIN
  UPDATE users SET following_count = following_count + 1 WHERE id = NEW.follower_id;
  UPDATE users SET followers_count = followers_count + 1 WHERE id = NEW.followee_id;
END;
--> statement-breakpoint
CREATE TRIGGER user_follows_after_delete AFTER DELETE ON user_follows BEGIN
  UPDATE users SET following_count = following_count - 1 WHERE id = OLD.follower_id;
  UPDATE users SET followers_count = followers_count - 1 WHERE id = OLD.followee_id;
END;
--> statement-breakpoint
CREATE TRIGGER echos_rank_insert AFTER INSERT ON echos BEGIN
  INSERT OR IGNORE INTO rank_dirty (key) VALUES ('e:' || NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER likes_rank_insert AFTER INSERT ON likes BEGIN
  INSERT OR IGNORE INTO rank_dirty (key) VALUES ('e:' || NEW.echo_id);
END;
--> statement-breakpoint
CREATE TRIGGER likes_rank_delete AFTER DELETE ON likes BEGIN
  INSERT OR IGNORE INTO rank_dirty (key) VALUES ('e:' || OLD.echo_id);
END;
--> statement-breakpoint
CREATE TRIGGER shares_rank_insert AFTER INSERT ON shares BEGIN
  INSERT OR IGNORE INTO rank_dirty (key) VALUES ('e:' || NEW.echo_id);
END;
