-- Issue 32 (decision 015 "Shown groups kept on write"): a notification group keeps whether its
-- recipient's list shows it, so a page walks only shown groups and a run of groups the recipient
-- hides (a muted actor's likes from before the mute, mentions holding a "hide" word, a limited
-- account's likes) no longer empties the pages before the visible ones.
--
-- `shown` is the test 0038's trigger made to count a group unread, now stored: an actor among the
-- group's newest three whom the recipient sees and moderation lets through (the newest first), and
-- no Notifications "hide" word of the recipient's on its echo. The same trigger then counts the
-- group from it (unread and shown): one definition of "the list shows it", in one place. The
-- trigger runs on every write of latest_at — a member added (the upsert) or removed (the removal
-- recomputes it) — and a refresh after a hiding change writes latest_at to itself on a slice of
-- groups to run it (modules/notification/notice-shown.server.ts). The list still tests every group
-- it reads: a state made stale by a change since hides nothing it should not show.
ALTER TABLE `notification_groups` ADD `shown` integer;--> statement-breakpoint
-- serves: GET /api/notifications, the recipient's shown groups newest first by keyset (the page
-- names it: INDEXED BY). Partial: a hidden group writes no entry.
CREATE INDEX `notification_groups_shown` ON `notification_groups` (`recipient_id`,`latest_at`,`kind`,`group_key`) WHERE shown = 1;--> statement-breakpoint
DROP TRIGGER notification_groups_after_update;--> statement-breakpoint
CREATE TRIGGER notification_groups_after_update AFTER UPDATE OF latest_at ON notification_groups BEGIN
  -- one write of the group: its shown state, and counted when unread and shown (0032's counted_at:
  -- what undoing it takes back)
  UPDATE notification_groups SET (shown, counted_at) = (SELECT v.shown,
      CASE WHEN v.shown = 1 AND NEW.latest_at > (SELECT notifications_read_at FROM users WHERE id = NEW.recipient_id) THEN NEW.latest_at END
    FROM (SELECT CASE WHEN
        -- an actor the list would show: the newest, else one of the group's newest three
        CASE WHEN (ifnull(json_extract((SELECT authors FROM hidden_authors WHERE user_id = NEW.recipient_id), '$."' || NEW.latest_actor_id || '"'), 1) BETWEEN 1 AND unixepoch() * 1000
          AND json_type(ifnull((SELECT entries FROM moderation_set WHERE id = 1), '{}'), '$."u:' || NEW.latest_actor_id || '"') IS NULL) THEN 1
          ELSE EXISTS (SELECT 1 FROM (SELECT n.actor_id FROM notifications n
              WHERE n.recipient_id = NEW.recipient_id AND n.kind = NEW.kind AND n.group_key = NEW.group_key
              ORDER BY n.created_at DESC LIMIT 3) w
            WHERE (ifnull(json_extract((SELECT authors FROM hidden_authors WHERE user_id = NEW.recipient_id), '$."' || w.actor_id || '"'), 1) BETWEEN 1 AND unixepoch() * 1000
          AND json_type(ifnull((SELECT entries FROM moderation_set WHERE id = 1), '{}'), '$."u:' || w.actor_id || '"') IS NULL)) END
        -- and no "hide" word of the recipient's in Notifications matches its echo (never their own)
        AND NOT EXISTS (SELECT 1 FROM echos e WHERE e.id = NEW.echo_id AND e.author_id <> NEW.recipient_id
        AND (SELECT CASE WHEN x.s IS NULL THEN NULL
          WHEN json_type(x.s, '$[0]') IS NULL THEN NULL
          WHEN instr(e.mute_text, json_extract(x.s, '$[0][0]')) > 0 AND json_extract(x.s, '$[0][1]') > x.n AND json_extract(x.s, '$[0][3]') & 16 AND json_extract(x.s, '$[0][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[1][0]')) > 0 AND json_extract(x.s, '$[1][1]') > x.n AND json_extract(x.s, '$[1][3]') & 16 AND json_extract(x.s, '$[1][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[2][0]')) > 0 AND json_extract(x.s, '$[2][1]') > x.n AND json_extract(x.s, '$[2][3]') & 16 AND json_extract(x.s, '$[2][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[3][0]')) > 0 AND json_extract(x.s, '$[3][1]') > x.n AND json_extract(x.s, '$[3][3]') & 16 AND json_extract(x.s, '$[3][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[4][0]')) > 0 AND json_extract(x.s, '$[4][1]') > x.n AND json_extract(x.s, '$[4][3]') & 16 AND json_extract(x.s, '$[4][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[5][0]')) > 0 AND json_extract(x.s, '$[5][1]') > x.n AND json_extract(x.s, '$[5][3]') & 16 AND json_extract(x.s, '$[5][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[6][0]')) > 0 AND json_extract(x.s, '$[6][1]') > x.n AND json_extract(x.s, '$[6][3]') & 16 AND json_extract(x.s, '$[6][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[7][0]')) > 0 AND json_extract(x.s, '$[7][1]') > x.n AND json_extract(x.s, '$[7][3]') & 16 AND json_extract(x.s, '$[7][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[8][0]')) > 0 AND json_extract(x.s, '$[8][1]') > x.n AND json_extract(x.s, '$[8][3]') & 16 AND json_extract(x.s, '$[8][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[9][0]')) > 0 AND json_extract(x.s, '$[9][1]') > x.n AND json_extract(x.s, '$[9][3]') & 16 AND json_extract(x.s, '$[9][4]') = 'hide' THEN 1
          WHEN json_type(x.s, '$[10]') IS NULL THEN NULL
          WHEN instr(e.mute_text, json_extract(x.s, '$[10][0]')) > 0 AND json_extract(x.s, '$[10][1]') > x.n AND json_extract(x.s, '$[10][3]') & 16 AND json_extract(x.s, '$[10][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[11][0]')) > 0 AND json_extract(x.s, '$[11][1]') > x.n AND json_extract(x.s, '$[11][3]') & 16 AND json_extract(x.s, '$[11][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[12][0]')) > 0 AND json_extract(x.s, '$[12][1]') > x.n AND json_extract(x.s, '$[12][3]') & 16 AND json_extract(x.s, '$[12][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[13][0]')) > 0 AND json_extract(x.s, '$[13][1]') > x.n AND json_extract(x.s, '$[13][3]') & 16 AND json_extract(x.s, '$[13][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[14][0]')) > 0 AND json_extract(x.s, '$[14][1]') > x.n AND json_extract(x.s, '$[14][3]') & 16 AND json_extract(x.s, '$[14][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[15][0]')) > 0 AND json_extract(x.s, '$[15][1]') > x.n AND json_extract(x.s, '$[15][3]') & 16 AND json_extract(x.s, '$[15][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[16][0]')) > 0 AND json_extract(x.s, '$[16][1]') > x.n AND json_extract(x.s, '$[16][3]') & 16 AND json_extract(x.s, '$[16][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[17][0]')) > 0 AND json_extract(x.s, '$[17][1]') > x.n AND json_extract(x.s, '$[17][3]') & 16 AND json_extract(x.s, '$[17][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[18][0]')) > 0 AND json_extract(x.s, '$[18][1]') > x.n AND json_extract(x.s, '$[18][3]') & 16 AND json_extract(x.s, '$[18][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[19][0]')) > 0 AND json_extract(x.s, '$[19][1]') > x.n AND json_extract(x.s, '$[19][3]') & 16 AND json_extract(x.s, '$[19][4]') = 'hide' THEN 1
          WHEN json_type(x.s, '$[20]') IS NULL THEN NULL
          WHEN instr(e.mute_text, json_extract(x.s, '$[20][0]')) > 0 AND json_extract(x.s, '$[20][1]') > x.n AND json_extract(x.s, '$[20][3]') & 16 AND json_extract(x.s, '$[20][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[21][0]')) > 0 AND json_extract(x.s, '$[21][1]') > x.n AND json_extract(x.s, '$[21][3]') & 16 AND json_extract(x.s, '$[21][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[22][0]')) > 0 AND json_extract(x.s, '$[22][1]') > x.n AND json_extract(x.s, '$[22][3]') & 16 AND json_extract(x.s, '$[22][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[23][0]')) > 0 AND json_extract(x.s, '$[23][1]') > x.n AND json_extract(x.s, '$[23][3]') & 16 AND json_extract(x.s, '$[23][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[24][0]')) > 0 AND json_extract(x.s, '$[24][1]') > x.n AND json_extract(x.s, '$[24][3]') & 16 AND json_extract(x.s, '$[24][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[25][0]')) > 0 AND json_extract(x.s, '$[25][1]') > x.n AND json_extract(x.s, '$[25][3]') & 16 AND json_extract(x.s, '$[25][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[26][0]')) > 0 AND json_extract(x.s, '$[26][1]') > x.n AND json_extract(x.s, '$[26][3]') & 16 AND json_extract(x.s, '$[26][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[27][0]')) > 0 AND json_extract(x.s, '$[27][1]') > x.n AND json_extract(x.s, '$[27][3]') & 16 AND json_extract(x.s, '$[27][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[28][0]')) > 0 AND json_extract(x.s, '$[28][1]') > x.n AND json_extract(x.s, '$[28][3]') & 16 AND json_extract(x.s, '$[28][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[29][0]')) > 0 AND json_extract(x.s, '$[29][1]') > x.n AND json_extract(x.s, '$[29][3]') & 16 AND json_extract(x.s, '$[29][4]') = 'hide' THEN 1
          WHEN json_type(x.s, '$[30]') IS NULL THEN NULL
          WHEN instr(e.mute_text, json_extract(x.s, '$[30][0]')) > 0 AND json_extract(x.s, '$[30][1]') > x.n AND json_extract(x.s, '$[30][3]') & 16 AND json_extract(x.s, '$[30][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[31][0]')) > 0 AND json_extract(x.s, '$[31][1]') > x.n AND json_extract(x.s, '$[31][3]') & 16 AND json_extract(x.s, '$[31][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[32][0]')) > 0 AND json_extract(x.s, '$[32][1]') > x.n AND json_extract(x.s, '$[32][3]') & 16 AND json_extract(x.s, '$[32][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[33][0]')) > 0 AND json_extract(x.s, '$[33][1]') > x.n AND json_extract(x.s, '$[33][3]') & 16 AND json_extract(x.s, '$[33][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[34][0]')) > 0 AND json_extract(x.s, '$[34][1]') > x.n AND json_extract(x.s, '$[34][3]') & 16 AND json_extract(x.s, '$[34][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[35][0]')) > 0 AND json_extract(x.s, '$[35][1]') > x.n AND json_extract(x.s, '$[35][3]') & 16 AND json_extract(x.s, '$[35][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[36][0]')) > 0 AND json_extract(x.s, '$[36][1]') > x.n AND json_extract(x.s, '$[36][3]') & 16 AND json_extract(x.s, '$[36][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[37][0]')) > 0 AND json_extract(x.s, '$[37][1]') > x.n AND json_extract(x.s, '$[37][3]') & 16 AND json_extract(x.s, '$[37][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[38][0]')) > 0 AND json_extract(x.s, '$[38][1]') > x.n AND json_extract(x.s, '$[38][3]') & 16 AND json_extract(x.s, '$[38][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[39][0]')) > 0 AND json_extract(x.s, '$[39][1]') > x.n AND json_extract(x.s, '$[39][3]') & 16 AND json_extract(x.s, '$[39][4]') = 'hide' THEN 1
          WHEN json_type(x.s, '$[40]') IS NULL THEN NULL
          WHEN instr(e.mute_text, json_extract(x.s, '$[40][0]')) > 0 AND json_extract(x.s, '$[40][1]') > x.n AND json_extract(x.s, '$[40][3]') & 16 AND json_extract(x.s, '$[40][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[41][0]')) > 0 AND json_extract(x.s, '$[41][1]') > x.n AND json_extract(x.s, '$[41][3]') & 16 AND json_extract(x.s, '$[41][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[42][0]')) > 0 AND json_extract(x.s, '$[42][1]') > x.n AND json_extract(x.s, '$[42][3]') & 16 AND json_extract(x.s, '$[42][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[43][0]')) > 0 AND json_extract(x.s, '$[43][1]') > x.n AND json_extract(x.s, '$[43][3]') & 16 AND json_extract(x.s, '$[43][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[44][0]')) > 0 AND json_extract(x.s, '$[44][1]') > x.n AND json_extract(x.s, '$[44][3]') & 16 AND json_extract(x.s, '$[44][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[45][0]')) > 0 AND json_extract(x.s, '$[45][1]') > x.n AND json_extract(x.s, '$[45][3]') & 16 AND json_extract(x.s, '$[45][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[46][0]')) > 0 AND json_extract(x.s, '$[46][1]') > x.n AND json_extract(x.s, '$[46][3]') & 16 AND json_extract(x.s, '$[46][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[47][0]')) > 0 AND json_extract(x.s, '$[47][1]') > x.n AND json_extract(x.s, '$[47][3]') & 16 AND json_extract(x.s, '$[47][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[48][0]')) > 0 AND json_extract(x.s, '$[48][1]') > x.n AND json_extract(x.s, '$[48][3]') & 16 AND json_extract(x.s, '$[48][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[49][0]')) > 0 AND json_extract(x.s, '$[49][1]') > x.n AND json_extract(x.s, '$[49][3]') & 16 AND json_extract(x.s, '$[49][4]') = 'hide' THEN 1
          WHEN json_type(x.s, '$[50]') IS NULL THEN NULL
          WHEN instr(e.mute_text, json_extract(x.s, '$[50][0]')) > 0 AND json_extract(x.s, '$[50][1]') > x.n AND json_extract(x.s, '$[50][3]') & 16 AND json_extract(x.s, '$[50][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[51][0]')) > 0 AND json_extract(x.s, '$[51][1]') > x.n AND json_extract(x.s, '$[51][3]') & 16 AND json_extract(x.s, '$[51][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[52][0]')) > 0 AND json_extract(x.s, '$[52][1]') > x.n AND json_extract(x.s, '$[52][3]') & 16 AND json_extract(x.s, '$[52][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[53][0]')) > 0 AND json_extract(x.s, '$[53][1]') > x.n AND json_extract(x.s, '$[53][3]') & 16 AND json_extract(x.s, '$[53][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[54][0]')) > 0 AND json_extract(x.s, '$[54][1]') > x.n AND json_extract(x.s, '$[54][3]') & 16 AND json_extract(x.s, '$[54][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[55][0]')) > 0 AND json_extract(x.s, '$[55][1]') > x.n AND json_extract(x.s, '$[55][3]') & 16 AND json_extract(x.s, '$[55][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[56][0]')) > 0 AND json_extract(x.s, '$[56][1]') > x.n AND json_extract(x.s, '$[56][3]') & 16 AND json_extract(x.s, '$[56][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[57][0]')) > 0 AND json_extract(x.s, '$[57][1]') > x.n AND json_extract(x.s, '$[57][3]') & 16 AND json_extract(x.s, '$[57][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[58][0]')) > 0 AND json_extract(x.s, '$[58][1]') > x.n AND json_extract(x.s, '$[58][3]') & 16 AND json_extract(x.s, '$[58][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[59][0]')) > 0 AND json_extract(x.s, '$[59][1]') > x.n AND json_extract(x.s, '$[59][3]') & 16 AND json_extract(x.s, '$[59][4]') = 'hide' THEN 1
          WHEN json_type(x.s, '$[60]') IS NULL THEN NULL
          WHEN instr(e.mute_text, json_extract(x.s, '$[60][0]')) > 0 AND json_extract(x.s, '$[60][1]') > x.n AND json_extract(x.s, '$[60][3]') & 16 AND json_extract(x.s, '$[60][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[61][0]')) > 0 AND json_extract(x.s, '$[61][1]') > x.n AND json_extract(x.s, '$[61][3]') & 16 AND json_extract(x.s, '$[61][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[62][0]')) > 0 AND json_extract(x.s, '$[62][1]') > x.n AND json_extract(x.s, '$[62][3]') & 16 AND json_extract(x.s, '$[62][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[63][0]')) > 0 AND json_extract(x.s, '$[63][1]') > x.n AND json_extract(x.s, '$[63][3]') & 16 AND json_extract(x.s, '$[63][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[64][0]')) > 0 AND json_extract(x.s, '$[64][1]') > x.n AND json_extract(x.s, '$[64][3]') & 16 AND json_extract(x.s, '$[64][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[65][0]')) > 0 AND json_extract(x.s, '$[65][1]') > x.n AND json_extract(x.s, '$[65][3]') & 16 AND json_extract(x.s, '$[65][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[66][0]')) > 0 AND json_extract(x.s, '$[66][1]') > x.n AND json_extract(x.s, '$[66][3]') & 16 AND json_extract(x.s, '$[66][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[67][0]')) > 0 AND json_extract(x.s, '$[67][1]') > x.n AND json_extract(x.s, '$[67][3]') & 16 AND json_extract(x.s, '$[67][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[68][0]')) > 0 AND json_extract(x.s, '$[68][1]') > x.n AND json_extract(x.s, '$[68][3]') & 16 AND json_extract(x.s, '$[68][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[69][0]')) > 0 AND json_extract(x.s, '$[69][1]') > x.n AND json_extract(x.s, '$[69][3]') & 16 AND json_extract(x.s, '$[69][4]') = 'hide' THEN 1
          WHEN json_type(x.s, '$[70]') IS NULL THEN NULL
          WHEN instr(e.mute_text, json_extract(x.s, '$[70][0]')) > 0 AND json_extract(x.s, '$[70][1]') > x.n AND json_extract(x.s, '$[70][3]') & 16 AND json_extract(x.s, '$[70][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[71][0]')) > 0 AND json_extract(x.s, '$[71][1]') > x.n AND json_extract(x.s, '$[71][3]') & 16 AND json_extract(x.s, '$[71][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[72][0]')) > 0 AND json_extract(x.s, '$[72][1]') > x.n AND json_extract(x.s, '$[72][3]') & 16 AND json_extract(x.s, '$[72][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[73][0]')) > 0 AND json_extract(x.s, '$[73][1]') > x.n AND json_extract(x.s, '$[73][3]') & 16 AND json_extract(x.s, '$[73][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[74][0]')) > 0 AND json_extract(x.s, '$[74][1]') > x.n AND json_extract(x.s, '$[74][3]') & 16 AND json_extract(x.s, '$[74][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[75][0]')) > 0 AND json_extract(x.s, '$[75][1]') > x.n AND json_extract(x.s, '$[75][3]') & 16 AND json_extract(x.s, '$[75][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[76][0]')) > 0 AND json_extract(x.s, '$[76][1]') > x.n AND json_extract(x.s, '$[76][3]') & 16 AND json_extract(x.s, '$[76][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[77][0]')) > 0 AND json_extract(x.s, '$[77][1]') > x.n AND json_extract(x.s, '$[77][3]') & 16 AND json_extract(x.s, '$[77][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[78][0]')) > 0 AND json_extract(x.s, '$[78][1]') > x.n AND json_extract(x.s, '$[78][3]') & 16 AND json_extract(x.s, '$[78][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[79][0]')) > 0 AND json_extract(x.s, '$[79][1]') > x.n AND json_extract(x.s, '$[79][3]') & 16 AND json_extract(x.s, '$[79][4]') = 'hide' THEN 1
          WHEN json_type(x.s, '$[80]') IS NULL THEN NULL
          WHEN instr(e.mute_text, json_extract(x.s, '$[80][0]')) > 0 AND json_extract(x.s, '$[80][1]') > x.n AND json_extract(x.s, '$[80][3]') & 16 AND json_extract(x.s, '$[80][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[81][0]')) > 0 AND json_extract(x.s, '$[81][1]') > x.n AND json_extract(x.s, '$[81][3]') & 16 AND json_extract(x.s, '$[81][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[82][0]')) > 0 AND json_extract(x.s, '$[82][1]') > x.n AND json_extract(x.s, '$[82][3]') & 16 AND json_extract(x.s, '$[82][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[83][0]')) > 0 AND json_extract(x.s, '$[83][1]') > x.n AND json_extract(x.s, '$[83][3]') & 16 AND json_extract(x.s, '$[83][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[84][0]')) > 0 AND json_extract(x.s, '$[84][1]') > x.n AND json_extract(x.s, '$[84][3]') & 16 AND json_extract(x.s, '$[84][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[85][0]')) > 0 AND json_extract(x.s, '$[85][1]') > x.n AND json_extract(x.s, '$[85][3]') & 16 AND json_extract(x.s, '$[85][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[86][0]')) > 0 AND json_extract(x.s, '$[86][1]') > x.n AND json_extract(x.s, '$[86][3]') & 16 AND json_extract(x.s, '$[86][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[87][0]')) > 0 AND json_extract(x.s, '$[87][1]') > x.n AND json_extract(x.s, '$[87][3]') & 16 AND json_extract(x.s, '$[87][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[88][0]')) > 0 AND json_extract(x.s, '$[88][1]') > x.n AND json_extract(x.s, '$[88][3]') & 16 AND json_extract(x.s, '$[88][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[89][0]')) > 0 AND json_extract(x.s, '$[89][1]') > x.n AND json_extract(x.s, '$[89][3]') & 16 AND json_extract(x.s, '$[89][4]') = 'hide' THEN 1
          WHEN json_type(x.s, '$[90]') IS NULL THEN NULL
          WHEN instr(e.mute_text, json_extract(x.s, '$[90][0]')) > 0 AND json_extract(x.s, '$[90][1]') > x.n AND json_extract(x.s, '$[90][3]') & 16 AND json_extract(x.s, '$[90][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[91][0]')) > 0 AND json_extract(x.s, '$[91][1]') > x.n AND json_extract(x.s, '$[91][3]') & 16 AND json_extract(x.s, '$[91][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[92][0]')) > 0 AND json_extract(x.s, '$[92][1]') > x.n AND json_extract(x.s, '$[92][3]') & 16 AND json_extract(x.s, '$[92][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[93][0]')) > 0 AND json_extract(x.s, '$[93][1]') > x.n AND json_extract(x.s, '$[93][3]') & 16 AND json_extract(x.s, '$[93][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[94][0]')) > 0 AND json_extract(x.s, '$[94][1]') > x.n AND json_extract(x.s, '$[94][3]') & 16 AND json_extract(x.s, '$[94][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[95][0]')) > 0 AND json_extract(x.s, '$[95][1]') > x.n AND json_extract(x.s, '$[95][3]') & 16 AND json_extract(x.s, '$[95][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[96][0]')) > 0 AND json_extract(x.s, '$[96][1]') > x.n AND json_extract(x.s, '$[96][3]') & 16 AND json_extract(x.s, '$[96][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[97][0]')) > 0 AND json_extract(x.s, '$[97][1]') > x.n AND json_extract(x.s, '$[97][3]') & 16 AND json_extract(x.s, '$[97][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[98][0]')) > 0 AND json_extract(x.s, '$[98][1]') > x.n AND json_extract(x.s, '$[98][3]') & 16 AND json_extract(x.s, '$[98][4]') = 'hide' THEN 1
          WHEN instr(e.mute_text, json_extract(x.s, '$[99][0]')) > 0 AND json_extract(x.s, '$[99][1]') > x.n AND json_extract(x.s, '$[99][3]') & 16 AND json_extract(x.s, '$[99][4]') = 'hide' THEN 1
        END FROM (SELECT (SELECT sets FROM muted_word_sets WHERE user_id = NEW.recipient_id) AS s, unixepoch() * 1000 AS n LIMIT 1) x) IS NOT NULL)
      THEN 1 ELSE 0 END AS shown) v)
  WHERE recipient_id = NEW.recipient_id AND kind = NEW.kind AND group_key = NEW.group_key;
  UPDATE users SET unread_notifications = unread_notifications
    + (ifnull((SELECT counted_at FROM notification_groups WHERE recipient_id = NEW.recipient_id AND kind = NEW.kind AND group_key = NEW.group_key), 0) > notifications_read_at)
    - (ifnull(OLD.counted_at, 0) > notifications_read_at)
  WHERE id = NEW.recipient_id;
END;
--> statement-breakpoint
-- every existing group's state (and its count, as the trigger now counts it: the counter stays exact)
UPDATE notification_groups SET latest_at = latest_at;
