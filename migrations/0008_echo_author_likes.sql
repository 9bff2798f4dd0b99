-- serves: most-liked feeds with an author rule: one author's echos by likes, then newest
CREATE INDEX `echos_author_likes` ON `echos` (`author_id`,`likes_count`,`id`);