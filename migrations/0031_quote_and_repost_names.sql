-- Lists sized by rows per echo (decision 027, "Pages sized by rows per echo"; issues 28, 31): a
-- quote's card read two rows for its embed (the quoted echo and that echo's author) and a repost
-- in Following one more for the reposter's name. Each name is now kept on a row the page reads
-- anyway, written once: names change only when an account is deleted (to `~<id>`), and then the
-- purge removes the account's echos and reposts (decision 032). NULL (a row written before this,
-- or by a bulk load) makes the read fall back to the users row.
ALTER TABLE `echos` ADD `quoted_name` text;
--> statement-breakpoint
ALTER TABLE `reposts` ADD `user_name` text;
--> statement-breakpoint
UPDATE `echos` SET `quoted_name` = (SELECT u.user_name FROM `echos` q JOIN `users` u ON u.id = q.author_id WHERE q.id = `echos`.`quote_of_id`)
  WHERE `quote_of_id` IS NOT NULL;
--> statement-breakpoint
UPDATE `reposts` SET `user_name` = (SELECT `user_name` FROM `users` WHERE `users`.`id` = `reposts`.`user_id`);
