-- Your own echos are part of your Following timeline (issue 29; product-decisions, "as on
-- Mastodon"). From now on a post adds its author's own row and a follow brings the follower's own
-- newest 20 (modules/echo/timeline.server.ts); this gives everyone who already follows someone
-- their own newest 20 once, as a follow would have. Each follower is one range of the
-- `echos_author_id` index (≤ 20 entries); rows already there are left as they are.
INSERT OR IGNORE INTO timeline_entries (owner_id, echo_id)
SELECT f.follower_id, e.id
FROM (SELECT DISTINCT follower_id FROM user_follows) f
JOIN echos e ON e.id IN (SELECT id FROM echos WHERE author_id = f.follower_id ORDER BY id DESC LIMIT 20);
