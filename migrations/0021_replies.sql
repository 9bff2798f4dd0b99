-- Replies and threads (issue 31, docs/decisions/024-replies.md). A reply is an echo with a parent
-- (`parent_id`) and its conversation's first echo (`root_id`); top-level echos keep both null.
-- No foreign key on either: deleting a parent keeps its replies, and the thread reads through
-- the deleted one as "This echo was deleted" (echo_tombstones keeps its place in the chain).
--
-- The parent's reply count (`comments_count`), the parent author's notification and the ranking's
-- change log are kept by triggers, in the transaction of the post or delete (cascades included),
-- like the counters of 0002: exact under concurrent posts and deletes.
CREATE TABLE `echo_tombstones` (
	`id` text PRIMARY KEY NOT NULL,
	`parent_id` text,
	`root_id` text,
	`created_at` integer NOT NULL,
	`deleted_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `echos` ADD `parent_id` text;--> statement-breakpoint
ALTER TABLE `echos` ADD `root_id` text;--> statement-breakpoint
-- serves: the thread page's replies of one echo, oldest first, by cursor (partial: a top-level
-- echo writes no entry)
CREATE INDEX `echos_parent` ON `echos` (`parent_id`,`id`) WHERE parent_id IS NOT NULL;--> statement-breakpoint
-- serves: one conversation in order (one range per root)
CREATE INDEX `echos_root` ON `echos` (`root_id`,`id`) WHERE root_id IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER echos_reply_insert AFTER INSERT ON echos WHEN NEW.parent_id IS NOT NULL BEGIN
  UPDATE echos SET comments_count = comments_count + 1 WHERE id = NEW.parent_id;
  -- "Most commented" moves: the ranking pass re-reads the parent
  INSERT OR IGNORE INTO rank_dirty (key) VALUES ('e:' || NEW.parent_id);
  -- the parent's author hears of it (never of their own reply). One group per reply, as a
  -- mention is one per echo: it quotes the reply, and the reply's deletion cascades it away.
  -- (Grouped by the parent, a group would count replies, not people: one person's ten replies
  -- read "and 9 others", and counting people would read the whole group on every reply.)
  INSERT INTO notifications (recipient_id, kind, group_key, actor_id, echo_id, created_at)
  SELECT author_id, 'reply', NEW.id, NEW.author_id, NEW.id, NEW.created_at FROM echos
  WHERE id = NEW.parent_id AND author_id <> NEW.author_id
  ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER echos_reply_delete AFTER DELETE ON echos WHEN OLD.parent_id IS NOT NULL BEGIN
  UPDATE echos SET comments_count = comments_count - 1 WHERE id = OLD.parent_id;
  INSERT OR IGNORE INTO rank_dirty (key) VALUES ('e:' || OLD.parent_id);
END;
--> statement-breakpoint
-- An echo deleted with replies under it leaves its place in the thread (its own place: parent,
-- root, time), so the chain above its replies still reads. Deleting an account's echos fires it
-- per echo through the cascade.
CREATE TRIGGER echos_tombstone AFTER DELETE ON echos WHEN OLD.comments_count > 0 BEGIN
  INSERT OR REPLACE INTO echo_tombstones (id, parent_id, root_id, created_at, deleted_at)
  VALUES (OLD.id, OLD.parent_id, OLD.root_id, OLD.created_at, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
