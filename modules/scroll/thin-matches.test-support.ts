// Test data for the feed index's module tests: a tag whose echos match a rule one in two (the
// others also carry the excluded tag "noise"), so a reader's engine window finds fewer than a
// screen of matches in it. Written with SQL: more echos than the post limit allows.
import { newId } from "../shared/index";
import { batch, sql, type AppContext, type SQL } from "../shared/index.server";
import type { FeedRule } from "./schema";

export type Match = { id: string; likes: number };

/** `2 × matches` echos of `authorId` one second apart from `start`; the matching ones, oldest first, with their likes. */
export async function writeThinMatches(app: AppContext, authorId: string, tag: string, matches: number, start: number): Promise<Match[]> {
  const found: Match[] = [];
  const writes: SQL[] = [sql`INSERT INTO tags (name, created_at) VALUES (${tag}, 0), ('noise', 0) ON CONFLICT DO NOTHING`];
  for (let i = 0; i < 2 * matches; i++) {
    const id = newId(start + i * 1000);
    const tags = JSON.stringify(i % 2 === 0 ? [tag] : [tag, "noise"]);
    // likes spread so the most-liked order differs from time
    const likes = i % 2 === 0 ? (i * 7) % 23 : 0;
    if (i % 2 === 0) found.push({ id, likes });
    writes.push(
      sql`INSERT INTO echos (id, author_id, content, tags, created_at, likes_count) VALUES (${id}, ${authorId}, ${`echo ${i}`}, ${tags}, ${start + i * 1000}, ${likes})`,
      sql`INSERT INTO echo_tags (tag, echo_id, tags, likes_count) VALUES (${tag}, ${id}, ${tags}, ${likes})`,
      ...(i % 2 === 0 ? [] : [sql`INSERT INTO echo_tags (tag, echo_id, tags, likes_count) VALUES ('noise', ${id}, ${tags}, ${likes})`]),
    );
  }
  await batch(app.db, writes);
  return found;
}

/** The rule that matches them: the tag, not "noise". */
export const thinRule = (tag: string, sortBy: FeedRule["sortBy"]): FeedRule => ({
  tagMatchType: "any",
  includedTags: [tag],
  excludedTags: ["noise"],
  authors: [],
  sortBy,
  sortTimeRange: "allTime",
  excludeLikedEchos: false,
  startDate: null,
  endDate: null,
});

/** A feed scroll of `rule` (keyed to its index) created by `creatorId`, written with SQL. */
export const feedScroll = (id: string, creatorId: string, rule: FeedRule, ruleKey: string) =>
  sql`INSERT INTO scrolls (id, creator_id, name, type, created_at, tag_match_type, included_tags, excluded_tags, authors, sort_by, sort_time_range,
        exclude_liked_echos, start_date, end_date, rule_key)
      VALUES (${id}, ${creatorId}, 'thin', 'feed', 0, ${rule.tagMatchType}, ${JSON.stringify(rule.includedTags)}, ${JSON.stringify(rule.excludedTags)},
        ${JSON.stringify(rule.authors)}, ${rule.sortBy}, ${rule.sortTimeRange}, ${rule.excludeLikedEchos ? 1 : 0}, ${rule.startDate}, ${rule.endDate}, ${ruleKey})`;
