-- Safety (issue 32, docs/decisions/026-safety.md): blocks and mutes, and the one row per viewer
-- that every list reads to leave out the authors it must not show.
--
-- `hidden_authors.authors` is a JSON object: author id → 0 (hidden for good: a block either way,
-- a mute without end) or the time in ms a mute ends (hidden until then). Triggers keep it from
-- `blocks` and `mutes` in the same transaction as the write; a list tests a candidate with
-- `ifnull(json_extract(<the viewer's row>, '$."<author>"'), 1) BETWEEN 1 AND <now>` (shown when
-- absent, or when its mute has ended), one row read whatever the set's size.
CREATE TABLE `blocks` (
	`blocker_id` text NOT NULL,
	`blocked_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`blocker_id`, `blocked_id`),
	FOREIGN KEY (`blocker_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocked_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `blocks_blocker_created` ON `blocks` (`blocker_id`,`created_at`,`blocked_id`);--> statement-breakpoint
CREATE INDEX `blocks_blocked` ON `blocks` (`blocked_id`,`blocker_id`);--> statement-breakpoint
CREATE TABLE `hidden_authors` (
	`user_id` text PRIMARY KEY NOT NULL,
	`authors` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mutes` (
	`muter_id` text NOT NULL,
	`muted_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	PRIMARY KEY(`muter_id`, `muted_id`),
	FOREIGN KEY (`muter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`muted_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mutes_muter_created` ON `mutes` (`muter_id`,`created_at`,`muted_id`);--> statement-breakpoint
CREATE INDEX `mutes_muted` ON `mutes` (`muted_id`,`muter_id`);--> statement-breakpoint
CREATE INDEX `mutes_expires` ON `mutes` (`expires_at`) WHERE expires_at IS NOT NULL;
--> statement-breakpoint
-- The entry of author Y in viewer X's set, from what holds between them now: a block either way
-- hides for good, else X's mute until it ends, else nothing. The blocked side's entry (the
-- blocker, in the set of the one blocked) is only added while that set holds fewer than 10,000
-- authors: a set is one row, and D1 refuses rows past 2 MB (decision 026, "Bounds").
CREATE TRIGGER blocks_after_insert AFTER INSERT ON blocks BEGIN
  INSERT INTO hidden_authors (user_id) VALUES (NEW.blocker_id), (NEW.blocked_id) ON CONFLICT DO NOTHING;
  UPDATE hidden_authors SET authors = json_set(authors, '$."' || NEW.blocked_id || '"', 0) WHERE user_id = NEW.blocker_id;
  UPDATE hidden_authors SET authors = json_set(authors, '$."' || NEW.blocker_id || '"', 0)
  WHERE user_id = NEW.blocked_id
    AND (json_type(authors, '$."' || NEW.blocker_id || '"') IS NOT NULL OR (SELECT count(*) FROM json_each(authors)) < 10000);
END;
--> statement-breakpoint
CREATE TRIGGER blocks_after_delete AFTER DELETE ON blocks BEGIN
  UPDATE hidden_authors SET authors = CASE
      WHEN EXISTS (SELECT 1 FROM blocks WHERE blocker_id = OLD.blocked_id AND blocked_id = OLD.blocker_id)
        THEN authors
      WHEN EXISTS (SELECT 1 FROM mutes WHERE muter_id = OLD.blocker_id AND muted_id = OLD.blocked_id)
        THEN json_set(authors, '$."' || OLD.blocked_id || '"',
          (SELECT ifnull(expires_at, 0) FROM mutes WHERE muter_id = OLD.blocker_id AND muted_id = OLD.blocked_id))
      ELSE json_remove(authors, '$."' || OLD.blocked_id || '"') END
  WHERE user_id = OLD.blocker_id;
  UPDATE hidden_authors SET authors = CASE
      WHEN EXISTS (SELECT 1 FROM blocks WHERE blocker_id = OLD.blocked_id AND blocked_id = OLD.blocker_id)
        THEN authors
      WHEN EXISTS (SELECT 1 FROM mutes WHERE muter_id = OLD.blocked_id AND muted_id = OLD.blocker_id)
        THEN json_set(authors, '$."' || OLD.blocker_id || '"',
          (SELECT ifnull(expires_at, 0) FROM mutes WHERE muter_id = OLD.blocked_id AND muted_id = OLD.blocker_id))
      ELSE json_remove(authors, '$."' || OLD.blocker_id || '"') END
  WHERE user_id = OLD.blocked_id;
END;
--> statement-breakpoint
-- A mute (or its new end) counts unless a block either way already hides the author for good.
CREATE TRIGGER mutes_after_insert AFTER INSERT ON mutes BEGIN
  INSERT INTO hidden_authors (user_id) VALUES (NEW.muter_id) ON CONFLICT DO NOTHING;
  UPDATE hidden_authors SET authors = json_set(authors, '$."' || NEW.muted_id || '"', ifnull(NEW.expires_at, 0))
  WHERE user_id = NEW.muter_id
    AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = NEW.muter_id AND blocked_id = NEW.muted_id)
      OR (blocker_id = NEW.muted_id AND blocked_id = NEW.muter_id));
END;
--> statement-breakpoint
CREATE TRIGGER mutes_after_update AFTER UPDATE OF expires_at ON mutes BEGIN
  UPDATE hidden_authors SET authors = json_set(authors, '$."' || NEW.muted_id || '"', ifnull(NEW.expires_at, 0))
  WHERE user_id = NEW.muter_id
    AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = NEW.muter_id AND blocked_id = NEW.muted_id)
      OR (blocker_id = NEW.muted_id AND blocked_id = NEW.muter_id));
END;
--> statement-breakpoint
CREATE TRIGGER mutes_after_delete AFTER DELETE ON mutes BEGIN
  UPDATE hidden_authors SET authors = json_remove(authors, '$."' || OLD.muted_id || '"')
  WHERE user_id = OLD.muter_id
    AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = OLD.muter_id AND blocked_id = OLD.muted_id)
      OR (blocker_id = OLD.muted_id AND blocked_id = OLD.muter_id));
END;
--> statement-breakpoint
-- No notification from an author the recipient does not see (a block either way, a mute that
-- has not ended): likes, follows, scroll follows (triggers of 0014) and mentions (the post's
-- batch) all insert here, so one guard covers them. RAISE(IGNORE) skips that one row.
CREATE TRIGGER notifications_hidden_actor BEFORE INSERT ON notifications
WHEN ifnull(json_extract((SELECT authors FROM hidden_authors WHERE user_id = NEW.recipient_id), '$."' || NEW.actor_id || '"'), 1)
  NOT BETWEEN 1 AND unixepoch() * 1000
BEGIN
  SELECT RAISE(IGNORE);
END;
