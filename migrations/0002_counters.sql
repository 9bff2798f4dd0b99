-- Denormalised counters, kept exact by the database in the same transaction as the write that
-- changes them (a like, a share, a post, a delete and its cascades). Verified by tests that
-- compare each counter with a COUNT(*) of the rows it counts.

-- the number of echos, for GET /echo/all's pagination.total without COUNT(*)
INSERT INTO stats (key, value) VALUES ('echos', 0);
--> statement-breakpoint
CREATE TRIGGER echos_after_insert AFTER INSERT ON echos BEGIN
  UPDATE users SET echos_count = echos_count + 1 WHERE id = NEW.author_id;
  UPDATE stats SET value = value + 1 WHERE key = 'echos';
END;
--> statement-breakpoint
CREATE TRIGGER echos_after_delete AFTER DELETE ON echos BEGIN
  UPDATE users SET echos_count = echos_count - 1 WHERE id = OLD.author_id;
  UPDATE stats SET value = value - 1 WHERE key = 'echos';
END;
--> statement-breakpoint
CREATE TRIGGER echo_tags_after_insert AFTER INSERT ON echo_tags BEGIN
  UPDATE tags SET echo_count = echo_count + 1 WHERE name = NEW.tag;
END;
--> statement-breakpoint
-- a tag no echo carries any more is removed: no orphan tags
CREATE TRIGGER echo_tags_after_delete AFTER DELETE ON echo_tags BEGIN
  UPDATE tags SET echo_count = echo_count - 1 WHERE name = OLD.tag;
  DELETE FROM tags WHERE name = OLD.tag AND echo_count <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER likes_after_insert AFTER INSERT ON likes BEGIN
  UPDATE echos SET likes_count = likes_count + 1 WHERE id = NEW.echo_id;
  UPDATE echo_tags SET likes_count = likes_count + 1 WHERE echo_id = NEW.echo_id;
END;
--> statement-breakpoint
CREATE TRIGGER likes_after_delete AFTER DELETE ON likes BEGIN
  UPDATE echos SET likes_count = likes_count - 1 WHERE id = OLD.echo_id;
  UPDATE echo_tags SET likes_count = likes_count - 1 WHERE echo_id = OLD.echo_id;
END;
--> statement-breakpoint
CREATE TRIGGER shares_after_insert AFTER INSERT ON shares BEGIN
  UPDATE echos SET shares_count = shares_count + 1 WHERE id = NEW.echo_id;
END;
