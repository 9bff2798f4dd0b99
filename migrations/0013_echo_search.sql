-- Echo search (issue 18): an FTS5 index of every echo, kept in step with `echos` by triggers in
-- the same transaction as the write (a post, a delete, an account deletion's cascade), like the
-- counters of 0002. Columns: `body` the echo text; `tags` its tags, one token each ('-' and '_'
-- become private-use letters U+E000 / U+E001, which unicode61 keeps inside a token, so
-- #foo-bar never matches the tags foo and bar); `author` the author's id (for @name); `eid`
-- the echo's id, read back with each hit and matched to find the row on delete: the index never
-- depends on the implicit rowid of `echos`, which VACUUM may renumber. Echos are never edited,
-- so there is no update trigger. Ranking and paging: modules/echo/search.server.ts.
CREATE VIRTUAL TABLE `echo_search` USING fts5(body, tags, author, eid, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
-- serves: the fill below and the insert trigger: an echo's tags JSON as index text
CREATE VIEW `echo_search_source` AS
  SELECT e.id, e.content, e.author_id,
    COALESCE((SELECT group_concat(replace(replace(j.value, '-', char(57344)), '_', char(57345)), ' ') FROM json_each(e.tags) j), '') AS tag_text
  FROM echos e;
--> statement-breakpoint
INSERT INTO `echo_search` (body, tags, author, eid) SELECT content, tag_text, author_id, id FROM echo_search_source ORDER BY id;
--> statement-breakpoint
CREATE TRIGGER echos_search_insert AFTER INSERT ON echos BEGIN
  INSERT INTO echo_search (body, tags, author, eid) SELECT content, tag_text, author_id, id FROM echo_search_source WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER echos_search_delete AFTER DELETE ON echos BEGIN
  DELETE FROM echo_search WHERE echo_search MATCH ('eid:"' || OLD.id || '"');
END;
