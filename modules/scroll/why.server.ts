// GET /api/scroll/{id}/why/{echoId}: is this echo in this scroll, and which of its rules does it
// meet (docs/decisions/012-preview-why-fork.md). A feed's answer is the reference model's
// per-echo checks (feed-rules.reference.ts) over the echo's own row, so it agrees with the engine
// exactly (the property test holds all three equal); it reads a handful of rows whatever the rule.
import { forbidden, idTime, isId, notFound } from "../shared/index";
import { alias } from "drizzle-orm/sqlite-core";
import { authorVisible, moderationVisible, batch, select, sql, tables, type AppContext, type RowOf } from "../shared/index.server";
import { ruleChecks, type RuleName } from "./feed-rules.reference";
import { toRule } from "./rule.server";
import { authorNamesOf, scrollSelect } from "./rows.server";
import type { FeedRule, TimeRange } from "./schema";

export type WhyReason = { rule: RuleName | "sortBy" | "everything" | "curation"; passed: boolean; text: string };
export type Why = { inFeed: boolean; reasons: WhyReason[] };

const e = alias(tables.echos, "e");
const u = alias(tables.users, "u");

/** What "why" needs of an echo: its author, tags, like count, the viewer's like, and whether a
 * curation holds it (types and the tags' decoding from the schema). */
function echoFactColumns(viewerId: string, scrollId: string) {
  return {
    id: e.id,
    authorId: e.authorId,
    authorName: u.userName,
    tags: e.tags,
    likesCount: e.likesCount,
    parentId: e.parentId,
    liked: sql<number>`EXISTS (SELECT 1 FROM likes l WHERE l.echo_id = ${e.id} AND l.user_id = ${viewerId})`,
    inScroll: sql<number>`EXISTS (SELECT 1 FROM scroll_echos se WHERE se.scroll_id = ${scrollId} AND se.echo_id = ${e.id})`,
    // whether the viewer sees its author (decision 026): one they block, who blocks them, or
    // whom they mute has no echo for them, so "why" has none to explain either; nor an echo
    // moderators hid or of an account they limited or suspended, which no feed shows (decision 029)
    visible: sql<number>`${authorVisible(viewerId, sql`${e.authorId}`)} AND ${moderationVisible(viewerId, sql`${e.authorId}`, sql`${e.id}`, "public")}`,
  };
}

export type EchoFacts = RowOf<ReturnType<typeof echoFactColumns>>;

/** The facts of the given echos (one for the API; the property test asks for a whole store). */
export function echoFactsQuery(viewerId: string, scrollId: string, echoIds: string[]) {
  return select(
    echoFactColumns(viewerId, scrollId),
    sql`FROM echos e JOIN users u ON u.id = e.author_id WHERE e.id IN (SELECT value FROM json_each(${JSON.stringify(echoIds)}))`,
  );
}

const WINDOW_TEXT: Record<Exclude<TimeRange, "allTime">, string> = { "1day": "day", "1month": "month", "1year": "year" };
const day = (ms: number) => new Date(ms).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const tags = (list: string[]) => list.map((t) => `#${t}`).join(", ");
const andList = (list: string[]) => (list.length < 2 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`);

/** The sentence for one rule: what the echo has, against what the rule asks. */
function reasonText(rule: FeedRule, name: RuleName, passed: boolean, echo: { tags: string[]; authorName: string; createdAt: number }, names: Map<string, string>): string {
  switch (name) {
    case "includedTags": {
      const has = rule.includedTags.filter((t) => echo.tags.includes(t));
      const missing = rule.includedTags.filter((t) => !echo.tags.includes(t));
      if (rule.tagMatchType === "all") {
        return passed ? `tagged ${andList(has.map((t) => `#${t}`))} (all of ${tags(rule.includedTags)})` : `not tagged ${andList(missing.map((t) => `#${t}`))} (needs all of ${tags(rule.includedTags)})`;
      }
      return passed ? `tagged ${andList(has.map((t) => `#${t}`))} (any of ${tags(rule.includedTags)})` : `not tagged any of ${tags(rule.includedTags)}`;
    }
    case "excludedTags": {
      const hit = rule.excludedTags.filter((t) => echo.tags.includes(t));
      return passed ? `not tagged ${tags(rule.excludedTags)}, which this feed leaves out` : `tagged ${andList(hit.map((t) => `#${t}`))}, which this feed leaves out`;
    }
    case "authors": {
      const wanted = rule.authors.map((id) => `@${names.get(id) ?? "unknown"}`).join(", ");
      return passed ? `by @${echo.authorName}` : `by @${echo.authorName}, not one of ${wanted}`;
    }
    case "dateRange": {
      const { startDate: from, endDate: to } = rule;
      const range = from !== null && to !== null ? `between ${day(from)} and ${day(to)}` : from !== null ? `on or after ${day(from)}` : `on or before ${day(to!)}`;
      return `posted on ${day(echo.createdAt)}, ${passed ? "" : "not "}${range}`;
    }
    case "timeRange": {
      const span = WINDOW_TEXT[rule.sortTimeRange as Exclude<TimeRange, "allTime">];
      return passed ? `posted in the last ${span}` : `posted on ${day(echo.createdAt)}, not in the last ${span}`;
    }
    case "excludeLikedEchos":
      return passed ? "you haven't liked it" : "you liked it, and this feed hides echos you liked";
    case "replies":
      return "it is a reply, and this feed leaves replies out";
  }
}

/** A feed's answer for one echo: the reference model's checks, in words. */
export function explainFeedEcho(rule: FeedRule, facts: EchoFacts, names: Map<string, string>, now: number): Why {
  // the engine bounds dates on the id (ids are time-ordered): the id's time is the one it compares
  const echo = { id: facts.id, authorId: facts.authorId, tags: facts.tags, createdAt: idTime(facts.id), likes: facts.likesCount, parentId: facts.parentId };
  const checks = ruleChecks(rule, echo, facts.liked === 1, now);
  const reasons: WhyReason[] = checks.map((c) => ({ ...c, text: reasonText(rule, c.rule, c.passed, { ...echo, authorName: facts.authorName }, names) }));
  if (checks.length === 0) reasons.push({ rule: "everything", passed: true, text: "this feed has no filters: it shows every echo" });
  if (rule.sortBy === "mostLiked") {
    // the order, not the membership: its like count is where it ranks
    const likes = `${facts.likesCount} like${facts.likesCount === 1 ? "" : "s"}`;
    reasons.push({ rule: "sortBy", passed: true, text: `ranked by likes: with ${likes}, it comes after every matching echo with more` });
  }
  return { inFeed: checks.every((c) => c.passed), reasons };
}

/**
 * Why an echo is (or is not) in a scroll the viewer may see: 404 for an unknown scroll or echo,
 * 403 for someone else's private scroll. One round trip: the scroll, its rule's author names and
 * the echo's facts in one batch.
 */
export async function whyHere(app: AppContext, viewerId: string, scrollId: string, echoId: string, now = Date.now()): Promise<Why> {
  if (!isId(scrollId)) throw notFound("Scroll not found");
  const ids = isId(echoId) ? [echoId] : [];
  const [rows, facts] = await batch(app.db, [scrollSelect(viewerId, sql`WHERE s.id = ${scrollId}`), echoFactsQuery(viewerId, scrollId, ids)]);
  const row = rows[0];
  if (!row) throw notFound("Scroll not found");
  if (row.isPrivate && row.creatorId !== viewerId) throw forbidden("This scroll is private");
  const echo = facts[0];
  if (!echo || echo.visible !== 1) throw notFound("Echo not found");
  if (row.type === "feed") return explainFeedEcho(toRule(row), echo, authorNamesOf(row), now);
  const inFeed = echo.inScroll === 1;
  const text = inFeed ? `@${row.creatorName} added it to this curation` : `@${row.creatorName} has not added it to this curation`;
  return { inFeed, reasons: [{ rule: "curation", passed: inFeed, text }] };
}
