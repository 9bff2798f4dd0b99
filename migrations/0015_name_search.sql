-- Search by any part of a name, in bounded reads: trigram FTS5 indexes of user names and of
-- scroll names and descriptions.
--
-- Users: before this, /api/search/users scanned every user name with instr() (61,114 rows read at 50,000 users,
-- docs/scaling.md). Prefix matches are served by the NOCASE name index (users_user_name_nocase);
-- this index finds names that contain the term elsewhere (terms of 3 characters or more: a
-- trigram needs three). `uid` is the user's id, matched to find the row on delete (like
-- echo_search's eid: never the implicit rowid of `users`, which VACUUM may renumber). Kept in
-- step by triggers in the same transaction as the write (sign-up, account deletion, a rename).
CREATE VIRTUAL TABLE `user_name_search` USING fts5(name, uid, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `user_name_search` (name, uid) SELECT user_name, id FROM users ORDER BY id;
--> statement-breakpoint
CREATE TRIGGER users_name_search_insert AFTER INSERT ON users BEGIN
  INSERT INTO user_name_search (name, uid) VALUES (NEW.user_name, NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER users_name_search_delete AFTER DELETE ON users BEGIN
  DELETE FROM user_name_search WHERE user_name_search MATCH ('uid:"' || OLD.id || '"');
END;
--> statement-breakpoint
CREATE TRIGGER users_name_search_rename AFTER UPDATE OF user_name ON users BEGIN
  DELETE FROM user_name_search WHERE user_name_search MATCH ('uid:"' || OLD.id || '"');
  INSERT INTO user_name_search (name, uid) VALUES (NEW.user_name, NEW.id);
END;
--> statement-breakpoint
-- Scrolls: /search listed the public scrolls whose name or description contains the term by
-- reading the 100 newest public feeds and 100 newest curations on every search (over 500 rows a
-- page with the rest) and could never find an older one. `sid` is the scroll's id (matched on
-- delete and update, never the implicit rowid); private scrolls are indexed too and filtered out
-- at read time, so making a scroll private or public needs no index write.
CREATE VIRTUAL TABLE `scroll_search` USING fts5(name, description, sid, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO `scroll_search` (name, description, sid) SELECT name, description, id FROM scrolls ORDER BY id;
--> statement-breakpoint
CREATE TRIGGER scrolls_search_insert AFTER INSERT ON scrolls BEGIN
  INSERT INTO scroll_search (name, description, sid) VALUES (NEW.name, NEW.description, NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER scrolls_search_delete AFTER DELETE ON scrolls BEGIN
  DELETE FROM scroll_search WHERE scroll_search MATCH ('sid:"' || OLD.id || '"');
END;
--> statement-breakpoint
CREATE TRIGGER scrolls_search_edit AFTER UPDATE OF name, description ON scrolls BEGIN
  DELETE FROM scroll_search WHERE scroll_search MATCH ('sid:"' || OLD.id || '"');
  INSERT INTO scroll_search (name, description, sid) VALUES (NEW.name, NEW.description, NEW.id);
END;
