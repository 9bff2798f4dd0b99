// The feed rule over plain arrays: the specification the SQL engine is tested against
// (feed-rules.property.test.ts). Deliberately simple; never used to serve requests — except its
// per-echo checks, which "Why am I seeing this?" explains (why.server.ts), so that the answer is
// the specification's, and the property test holds it equal to the engine too.
import { TIME_RANGE_MS, type FeedRule } from "./schema";

/** `parentId`: set on a reply (absent or null: a top-level echo). */
export type RefEcho = { id: string; authorId: string; tags: string[]; createdAt: number; likes: number; parentId?: string | null };
export type RefLike = { echoId: string; userId: string };

/** The rules that decide whether an echo is in a feed, in the order "why" lists them. */
export type RuleName = "includedTags" | "excludedTags" | "authors" | "dateRange" | "timeRange" | "excludeLikedEchos" | "replies";
export type RuleCheck = { rule: RuleName; passed: boolean };

/** Each rule the feed has, and whether the echo meets it: the echo is in the feed when it
 * meets them all. */
export function ruleChecks(rule: FeedRule, e: RefEcho, likedByViewer: boolean, now: number): RuleCheck[] {
  const checks: RuleCheck[] = [];
  const check = (name: RuleName, passed: boolean) => checks.push({ rule: name, passed });
  if (rule.includedTags.length > 0) {
    const has = (t: string) => e.tags.includes(t);
    check("includedTags", rule.tagMatchType === "all" ? rule.includedTags.every(has) : rule.includedTags.some(has));
  }
  if (rule.excludedTags.length > 0) check("excludedTags", !rule.excludedTags.some((t) => e.tags.includes(t)));
  if (rule.authors.length > 0) check("authors", rule.authors.includes(e.authorId));
  if (rule.startDate !== null || rule.endDate !== null) {
    check("dateRange", (rule.startDate === null || e.createdAt >= rule.startDate) && (rule.endDate === null || e.createdAt <= rule.endDate));
  }
  if (rule.sortBy === "mostLiked" && rule.sortTimeRange !== "allTime") {
    check("timeRange", e.createdAt >= now - TIME_RANGE_MS[rule.sortTimeRange]);
  }
  if (rule.excludeLikedEchos) check("excludeLikedEchos", !likedByViewer);
  // a feed shows replies only when its rule says so (decision 024); said of replies only
  if (!rule.replies && e.parentId) check("replies", false);
  return checks;
}

export function referenceFeed(rule: FeedRule, echos: RefEcho[], likes: RefLike[], viewerId: string, now: number): string[] {
  const liked = new Set(likes.filter((l) => l.userId === viewerId).map((l) => l.echoId));
  const matches = echos.filter((e) => ruleChecks(rule, e, liked.has(e.id), now).every((c) => c.passed));
  const byId = (a: RefEcho, b: RefEcho) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  if (rule.sortBy === "oldestFirst") matches.sort(byId);
  else if (rule.sortBy === "newestFirst") matches.sort((a, b) => byId(b, a));
  else matches.sort((a, b) => b.likes - a.likes || byId(b, a));
  return matches.map((e) => e.id);
}

/** What moderators took out of public lists (decision 029): echos hidden from everyone but their
 * author, and the echos of limited and suspended accounts. */
export type RefModeration = { hiddenEchos: string[]; limited: string[]; suspended: string[] };

/**
 * The echos a public list (a feed) may show the viewer: not by an author they hide (a block
 * either way, a mute not ended: decision 026), and none that moderation took out — but their own
 * always (an author sees their hidden echo, decision 029).
 */
export function visibleInPublicLists(echos: RefEcho[], viewerId: string, hiddenAuthors: string[], moderation: RefModeration): RefEcho[] {
  return echos.filter(
    (e) =>
      !hiddenAuthors.includes(e.authorId) &&
      (e.authorId === viewerId ||
        (!moderation.hiddenEchos.includes(e.id) && !moderation.limited.includes(e.authorId) && !moderation.suspended.includes(e.authorId))),
  );
}

/**
 * What a viewer hides from their feeds (issue 32, decisions 026 and 028): `blocked`, the authors a
 * block either way hides; `muted`, each muted author's end (null: none); `words`, each muted
 * word's end ("hide" in the feeds context; null: none). A word here hides an echo carrying it as a
 * tag (the property's echos say nothing else).
 */
export type RefHiding = { blocked: string[]; muted: Record<string, number | null>; words: Record<string, number | null> };

const NO_MODERATION: RefModeration = { hiddenEchos: [], limited: [], suspended: [] };

/**
 * The echos a feed shows the viewer at `now`: not by an author they block, are blocked by or mute
 * (a mute not ended), none carrying a muted word not ended — but their own always (no word hides
 * an author's own echo). `forGood`: only what hides whatever the clock does (a block, a mute or
 * word without end) — what their hiding viewer index leaves out (decision 033).
 */
export function seenInFeeds(echos: RefEcho[], viewerId: string, hiding: RefHiding, now: number, forGood = false): RefEcho[] {
  const hides = (end: number | null) => end === null || (!forGood && end > now);
  const authors = [...hiding.blocked, ...Object.entries(hiding.muted).flatMap(([id, end]) => (hides(end) ? [id] : []))];
  const words = Object.entries(hiding.words).flatMap(([word, end]) => (hides(end) ? [word] : []));
  return visibleInPublicLists(echos, viewerId, authors, NO_MODERATION).filter((e) => e.authorId === viewerId || !e.tags.some((t) => words.includes(t.toLowerCase())));
}
