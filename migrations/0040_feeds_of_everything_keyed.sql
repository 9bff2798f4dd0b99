-- Feeds of everything are indexed (issue 32, docs/decisions/033-viewer-indexes.md, "Feeds of
-- everything, indexed"): a newest- or oldest-first rule with no tag, author or exclusion now has
-- an index like any rule (registered under `*`), so a heavy hider's or hide-liked reader's viewer
-- index can be made of it. Such feeds were saved with `rule_key = ''` (no index); the repair pass
-- keys every feed whose key is NULL (its index row, terms and backfill: 50 a pass, as after 0018).
-- Data only: no column changes.
UPDATE `scrolls` SET `rule_key` = NULL WHERE `type` = 'feed' AND `rule_key` = '';
