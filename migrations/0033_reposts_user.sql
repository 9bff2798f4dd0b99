-- Issue 31, decision 027: an account's newest reposts, newest first — what a follow brings into
-- the follower's Following (their newest entries, echos and reposts together) and what an
-- unfollow takes out, each a bounded range (the unique (user_id, echo_id) index is in echo order).
CREATE INDEX `reposts_user` ON `reposts` (`user_id`,`id`);
