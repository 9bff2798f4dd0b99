-- Muted words (issue 32, docs/decisions/028-muted-words.md): a user's muted phrases and #tags
-- (muted_words, the truth), compiled into one row per user (muted_word_sets, rewritten in the
-- same batch as every change) that each list reads once per statement; and each echo's folded
-- words (echos.mute_text) that a phrase is found in with one instr, no row read.
CREATE TABLE `muted_word_sets` (
	`user_id` text PRIMARY KEY NOT NULL,
	`sets` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `muted_words` (
	`user_id` text NOT NULL,
	`id` text NOT NULL,
	`phrase` text NOT NULL,
	`pattern` text NOT NULL,
	`action` text NOT NULL,
	`contexts` integer NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	PRIMARY KEY(`user_id`, `id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `muted_words_pattern` ON `muted_words` (`user_id`,`pattern`);--> statement-breakpoint
CREATE INDEX `muted_words_expires` ON `muted_words` (`expires_at`) WHERE expires_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE `echos` ADD `mute_text` text;--> statement-breakpoint
-- Echos written before this migration, and any writer that does not fold (the app's post and
-- edit fold in JS: Unicode case and accents, shared/mute-text.ts): an ASCII approximation in SQL
-- (lower-case, common punctuation as spaces, the tags as words and #tags), so a muted phrase
-- still finds their plain words.
UPDATE echos SET mute_text = ' ' || replace(replace(replace(trim(lower(
      replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
        content, char(10), ' '), char(13), ' '), char(9), ' '), '.', ' '), ',', ' '), '!', ' '), '?', ' '), ':', ' '), ';', ' '),
        '"', ' '), '(', ' '), ')', ' '), '#', ' '), '@', ' '), '''', ' ')
    )), '    ', ' '), '  ', ' '), '  ', ' ') || ' '
  || '| ' || ' ' || replace(replace(replace(trim(lower(
      replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
        ifnull(warning, ''), char(10), ' '), char(13), ' '), char(9), ' '), '.', ' '), ',', ' '), '!', ' '), '?', ' '), ':', ' '), ';', ' '),
        '"', ' '), '(', ' '), ')', ' '), '#', ' '), '@', ' '), '''', ' ')
    )), '    ', ' '), '  ', ' '), '  ', ' ') || ' ' || '| '
  || ifnull((SELECT group_concat(lower(value) || ' #' || lower(replace(replace(value, '-', ''), '_', '')), ' ') FROM json_each(echos.tags)), '') || ' ';
--> statement-breakpoint
CREATE TRIGGER echos_mute_text_default AFTER INSERT ON echos WHEN NEW.mute_text IS NULL BEGIN
  UPDATE echos SET mute_text = ' ' || replace(replace(replace(trim(lower(
      replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
        NEW.content, char(10), ' '), char(13), ' '), char(9), ' '), '.', ' '), ',', ' '), '!', ' '), '?', ' '), ':', ' '), ';', ' '),
        '"', ' '), '(', ' '), ')', ' '), '#', ' '), '@', ' '), '''', ' ')
    )), '    ', ' '), '  ', ' '), '  ', ' ') || ' '
    || '| ' || ' ' || replace(replace(replace(trim(lower(
      replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
        ifnull(NEW.warning, ''), char(10), ' '), char(13), ' '), char(9), ' '), '.', ' '), ',', ' '), '!', ' '), '?', ' '), ':', ' '), ';', ' '),
        '"', ' '), '(', ' '), ')', ' '), '#', ' '), '@', ' '), '''', ' ')
    )), '    ', ' '), '  ', ' '), '  ', ' ') || ' ' || '| '
    || ifnull((SELECT group_concat(lower(value) || ' #' || lower(replace(replace(value, '-', ''), '_', '')), ' ') FROM json_each(NEW.tags)), '') || ' '
  WHERE id = NEW.id;
END;
