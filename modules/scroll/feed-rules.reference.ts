// The feed rule over plain arrays: the specification the SQL engine is tested against
// (feed-rules.property.test.ts). Deliberately simple; never used to serve requests.
import { TIME_RANGE_MS, type FeedRule } from "./schema";

export type RefEcho = { id: string; authorId: string; tags: string[]; createdAt: number; likes: number };
export type RefLike = { echoId: string; userId: string };

export function referenceFeed(rule: FeedRule, echos: RefEcho[], likes: RefLike[], viewerId: string, now: number): string[] {
  const liked = new Set(likes.filter((l) => l.userId === viewerId).map((l) => l.echoId));
  let from = rule.startDate;
  if (rule.sortBy === "mostLiked" && rule.sortTimeRange !== "allTime") {
    const windowStart = now - TIME_RANGE_MS[rule.sortTimeRange];
    from = from === null ? windowStart : Math.max(from, windowStart);
  }
  const matches = echos.filter((e) => {
    if (rule.includedTags.length > 0) {
      const ok =
        rule.tagMatchType === "all"
          ? rule.includedTags.every((t) => e.tags.includes(t))
          : rule.includedTags.some((t) => e.tags.includes(t));
      if (!ok) return false;
    }
    if (rule.excludedTags.some((t) => e.tags.includes(t))) return false;
    if (rule.authors.length > 0 && !rule.authors.includes(e.authorId)) return false;
    if (from !== null && e.createdAt < from) return false;
    if (rule.endDate !== null && e.createdAt > rule.endDate) return false;
    if (rule.excludeLikedEchos && liked.has(e.id)) return false;
    return true;
  });
  const byId = (a: RefEcho, b: RefEcho) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  if (rule.sortBy === "oldestFirst") matches.sort(byId);
  else if (rule.sortBy === "newestFirst") matches.sort((a, b) => byId(b, a));
  else matches.sort((a, b) => b.likes - a.likes || byId(b, a));
  return matches.map((e) => e.id);
}
