-- Reposts and quotes (issue 31, docs/decisions/027-reposts-and-quotes.md).
--
-- A repost is a row of `reposts` (once per user and echo) whose id, from the echos' time-ordered
-- id space, is its entry in the reposter's followers' timelines (timeline_entries.echo_id has no
-- foreign key since 0024, so it may name a repost). A quote is an echo with `quote_of_id`.
-- The counts (`reposts_count`, `quotes_count`) and the quoted author's notifications are kept by
-- triggers in the transaction of the write or the delete (cascades included), as likes' (0002)
-- and replies' (0021) are: exact under concurrent writes.
CREATE TABLE `reposts` (
	`id` text PRIMARY KEY NOT NULL,
	`echo_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`echo_id`) REFERENCES `echos`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- serves: once per user and echo, the viewer's "reposted" state per card, an account's cascade
CREATE UNIQUE INDEX `reposts_user_echo` ON `reposts` (`user_id`,`echo_id`);--> statement-breakpoint
-- serves: who reposted an echo, newest first by cursor; an echo's cascade
CREATE INDEX `reposts_echo` ON `reposts` (`echo_id`,`id`);--> statement-breakpoint
ALTER TABLE `echos` ADD `reposts_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `echos` ADD `quotes_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `echos` ADD `quote_of_id` text;--> statement-breakpoint
-- serves: an echo's quotes newest first by cursor (partial: most echos quote nothing)
CREATE INDEX `echos_quote` ON `echos` (`quote_of_id`,`id`) WHERE quote_of_id IS NOT NULL;--> statement-breakpoint
-- Reposts group per echo like likes ("alice and 2 others reposted your echo"): the news is who,
-- not a text of their own. Never for reposting one's own echo.
CREATE TRIGGER reposts_after_insert AFTER INSERT ON reposts BEGIN
  UPDATE echos SET reposts_count = reposts_count + 1 WHERE id = NEW.echo_id;
  INSERT INTO notifications (recipient_id, kind, group_key, actor_id, echo_id, created_at)
  SELECT author_id, 'repost', id, NEW.user_id, id, NEW.created_at FROM echos
  WHERE id = NEW.echo_id AND author_id <> NEW.user_id
  ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
-- (when the echo itself is being deleted its notifications go by the echo_id cascade)
CREATE TRIGGER reposts_after_delete AFTER DELETE ON reposts BEGIN
  UPDATE echos SET reposts_count = reposts_count - 1 WHERE id = OLD.echo_id;
  DELETE FROM notifications
  WHERE recipient_id = (SELECT author_id FROM echos WHERE id = OLD.echo_id)
    AND kind = 'repost' AND group_key = OLD.echo_id AND created_at = OLD.created_at AND actor_id = OLD.user_id;
END;
--> statement-breakpoint
-- A quote is one notification per quote, as a reply is (its text is the news); it is keyed by
-- the quote, so deleting the quote cascades it away.
CREATE TRIGGER echos_quote_insert AFTER INSERT ON echos WHEN NEW.quote_of_id IS NOT NULL BEGIN
  UPDATE echos SET quotes_count = quotes_count + 1 WHERE id = NEW.quote_of_id;
  INSERT INTO notifications (recipient_id, kind, group_key, actor_id, echo_id, created_at)
  SELECT author_id, 'quote', NEW.id, NEW.author_id, NEW.id, NEW.created_at FROM echos
  WHERE id = NEW.quote_of_id AND author_id <> NEW.author_id
  ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER echos_quote_delete AFTER DELETE ON echos WHEN OLD.quote_of_id IS NOT NULL BEGIN
  UPDATE echos SET quotes_count = quotes_count - 1 WHERE id = OLD.quote_of_id;
END;
