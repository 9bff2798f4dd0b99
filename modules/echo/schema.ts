import * as v from "valibot";
import { dateText, maxChars, PageQuerySchema, text } from "../shared/index";
import { isValidTag, MAX_TAG_LENGTH, normalizeTag } from "./tags";
import { linkify } from "./linkify";

export const MAX_CONTENT = 1000;
export const MAX_TAGS = 5;
export const MAX_REPORT_REASON = 500;
/** A content warning's length (decision 025): a subject line, not a second text. */
export const MAX_WARNING = 100;
/** Edits one echo keeps (decision 025): its history stays bounded; the 51st edit is a 409. */
export const MAX_EDITS = 50;
/** Versions one page of an echo's history shows. */
export const HISTORY_PAGE = 20;
/** Spec §5: the Create Echo suggestions (the first 8 not yet chosen are shown). */
export const TAG_SUGGESTIONS = [
  "thoughts", "tech", "life", "work", "travel", "food", "books",
  "music", "art", "nature", "fitness", "learning", "personal", "news",
] as const;

export { MAX_TAG_LENGTH, TAG_PATTERN, normalizeTag, isValidTag } from "./tags";
export const TAG_RULE_MESSAGE = `Tags may only contain letters, numbers, "_" and "-" (${MAX_TAG_LENGTH} characters at most)`;

/** Normalise a list: no empties, no duplicates, order kept. */
export function normalizeTags(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (const item of raw) {
    const tag = normalizeTag(item);
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/**
 * The tags an echo's text names: each `#tag` the text links (so only valid ones), normalised, in
 * the order written, once each. They are the echo's tags as much as the chosen ones are
 * (product-decisions: a typed `#tag` is a tag, for every client).
 */
export function textTags(content: string): string[] {
  const out: string[] = [];
  for (const part of linkify(content)) if (part.kind === "tag" && !out.includes(part.tag)) out.push(part.tag);
  return out;
}

/** An echo's tags: the chosen ones, then the `#tags` its text names that are not among them. */
export function echoTags(chosen: readonly string[], content: string): string[] {
  return [...chosen, ...textTags(content).filter((tag) => !chosen.includes(tag))];
}

/** Past the limit once the text's #tags are counted in (the API's 400; the form says it too). */
export const tooManyTagsMessage = (count: number) =>
  `at most ${MAX_TAGS} tags per echo, #tags in the text included (this one has ${count})`;

/**
 * POST /api/echo/post, and PATCH /api/echo/{id}/edit (an edit sends the whole new version: text,
 * tags, warning; the same rules as a post). The echo's tags are the chosen `tags` and the `#tags` typed in `content`,
 * merged (normalised, once each, chosen first), at most 5 together.
 */
export const PostEchoSchema = v.pipe(
  v.object(
    {
      content: v.optional(
        v.pipe(
          text("content"),
          v.trim(),
          v.nonEmpty("content is required"),
          maxChars(MAX_CONTENT, `content must be at most ${MAX_CONTENT} characters`),
        ),
        "",
      ),
      // optional content warning (decision 025): "" or only spaces is none
      warning: v.optional(
        v.pipe(
          text("warning"),
          v.trim(),
          maxChars(MAX_WARNING, `warning must be at most ${MAX_WARNING} characters`),
          v.transform((w: string) => w || null),
        ),
        "",
      ),
      tags: v.optional(
        v.pipe(
          v.array(text("tags", "tags must be strings"), "tags must be a list of strings"),
          v.maxLength(50, `tags: at most ${MAX_TAGS} tags`),
          v.transform((list: string[]) => normalizeTags(list)),
          v.maxLength(MAX_TAGS, `tags: at most ${MAX_TAGS} tags`),
          v.check((tags) => tags.every(isValidTag), `tags: ${TAG_RULE_MESSAGE}`),
        ),
        [],
      ),
    },
    "Request body must be a JSON object",
  ),
  v.transform((input) => ({ ...input, tags: echoTags(input.tags, input.content) })),
  v.check((input) => input.tags.length <= MAX_TAGS, (issue) => `tags: ${tooManyTagsMessage((issue.input as { tags: string[] }).tags.length)}`),
);
export type PostEchoInput = v.InferOutput<typeof PostEchoSchema>;

export const ReportSchema = v.object({
  reason: v.optional(
    v.pipe(
      text("reason"),
      v.trim(),
      v.nonEmpty("reason is required"),
      maxChars(MAX_REPORT_REASON, `reason must be at most ${MAX_REPORT_REASON} characters`),
    ),
    "",
  ),
});

export const TAG_ORDERS = ["newest", "oldest", "likes"] as const;
export const TIMEFRAMES = ["all", "1hour", "1day", "1week", "1month", "1year"] as const;
export type TagOrder = (typeof TAG_ORDERS)[number];
export type Timeframe = (typeof TIMEFRAMES)[number];

export const TIMEFRAME_MS: Record<Exclude<Timeframe, "all">, number> = {
  "1hour": 3600_000,
  "1day": 86_400_000,
  "1week": 7 * 86_400_000,
  "1month": 30 * 86_400_000,
  "1year": 365 * 86_400_000,
};

export const TagQuerySchema = v.object({
  orderBy: v.optional(v.picklist(TAG_ORDERS, `orderBy must be one of ${TAG_ORDERS.join(", ")}`), "newest"),
  timeframe: v.optional(v.picklist(TIMEFRAMES, `timeframe must be one of ${TIMEFRAMES.join(", ")}`), "all"),
  startDate: v.optional(dateText("startDate")),
  endDate: v.optional(dateText("endDate")),
});

/** GET /api/search/echos: q is checked by the search parser (search-query.ts), which names it in its 400s. */
export const SearchEchosQuerySchema = v.object({ q: v.optional(text("q")) });

/** The tag page's address bar: the API's values, and an unknown one falls back to the default. */
export const TagPageQuerySchema = v.object({
  orderBy: v.fallback(TagQuerySchema.entries.orderBy, "newest"),
  timeframe: v.fallback(TagQuerySchema.entries.timeframe, "all"),
});

/** The search page's tabs, in their order; the first is the default. */
export const SEARCH_TABS = ["echos", "people", "scrolls", "tags"] as const;
export type SearchTab = (typeof SEARCH_TABS)[number];

/**
 * The search page's address bar: q, trimmed ("" without one), and the tab shown (`type`; an
 * unknown or missing one is the first tab). Each tab reads only its own results, so the page
 * stays within the row budget (docs/product-notes.md, Search).
 */
export const SearchPageQuerySchema = v.object({
  q: v.fallback(v.pipe(v.optional(v.string(), ""), v.trim()), ""),
  type: v.fallback(v.optional(v.picklist(SEARCH_TABS), SEARCH_TABS[0]), SEARCH_TABS[0]),
});

export const AllQuerySchema = v.object({
  tag: v.optional(text("tag")),
  user: v.optional(text("user")),
});

/** An echo as the API and every screen see it. */
export type Echo = {
  _id: string;
  content: string;
  author: { _id: string; userName: string };
  tags: { _id: string; name: string }[];
  likes: number;
  isLiked: boolean;
  comments: never[];
  commentsCount: number;
  shares: number;
  createdAt: string;
  /** when the text, tags or warning last changed; absent on an echo never edited (decision 025) */
  editedAt?: string;
  /** the content warning: the text and tags stay hidden until the reader opens them */
  warning?: string;
  /** the viewer's muted word ("warn") this echo matches: show it collapsed, "Hidden: matches …" (decision 028) */
  mutedWord?: string;
  /** the echo this one replies to (decision 024); null on a top-level echo */
  parentId: string | null;
  /** search results only: what the query matched (GET /api/search/echos) */
  highlights?: Highlights;
  /** how many people reposted it, how many echos quote it (decision 027) */
  reposts: number;
  quotes: number;
  /** the viewer reposted it */
  isReposted: boolean;
  /** a quote's quoted echo (absent on an echo that quotes nothing) */
  quoted?: QuotedEcho;
  /** Following only: this entry is someone's repost of the echo ("↻ @name reposted") */
  repost?: Repost;
};

/** A quote's embedded echo: as it is, or why it cannot be shown. */
export type QuotedEcho =
  | { _id: string; state: "ok"; author: { _id: string; userName: string }; content: string; warning?: string; createdAt: string }
  | { _id: string; state: "deleted" }
  | { _id: string; state: "unavailable" };

/** A repost: its own id (its place in the timelines), who reposted, when. */
export type Repost = { _id: string; by: { _id: string; userName: string }; createdAt: string };

/** GET /api/echo/{id}/reposts: who reposted an echo, newest first. */
export type RepostersPage = {
  users: { _id: string; userName: string; repostedAt: string }[];
  pagination: { limit: number; hasMore: boolean; nextCursor: string | null };
};

/** Reposters and quotes one page shows. */
export const REPOSTS_PAGE = 20;
export const QUOTES_PAGE = 20;

/** Where a search's words are in `content` (UTF-16 offsets, end exclusive) and which tags matched. */
export type Highlights = { content: [start: number, end: number][]; tags: string[] };

export type EchoPage = {
  echos: Echo[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean; nextCursor: string | null };
};

/** One earlier version of an echo (GET /api/echo/{id}/history): as it was from `createdAt` on. */
export type EchoVersion = { version: number; content: string; tags: string[]; warning?: string; createdAt: string };
export type EchoHistory = { versions: EchoVersion[]; pagination: { limit: number; hasMore: boolean; nextCursor: string | null } };

/** GET /api/echo/{id}/history: a page of versions, newest first; `cursor` the last page's nextCursor. */
export const HistoryQuerySchema = v.object({
  cursor: v.optional(v.pipe(text("cursor"), v.regex(/^\d{1,3}$/, "cursor must be a version number"), v.transform(Number))),
});
/** The thread page (decision 024): how many ancestors show above an echo, replies a page, and
 * replies under each reply (the rest behind "more replies", as Bluesky does). */
export const THREAD_ANCESTORS = 10;
export const THREAD_PAGE = 10;
export const THREAD_NESTED = 2;

/** One place in a thread: an echo, or `echo: null` where one was deleted ("This echo was deleted"). */
export type ThreadItem = {
  _id: string;
  parentId: string | null;
  echo: Echo | null;
  /** `echo` is null because its author is hidden from the viewer (a block either way, a mute) */
  hidden?: true;
};

/** GET /api/echo/{id}/thread: the chain above the echo, the echo, a page of its replies. */
export type Thread = {
  echo: ThreadItem;
  /** oldest first, at most THREAD_ANCESTORS, ending with the echo's parent */
  ancestors: ThreadItem[];
  /** the chain goes on above the first ancestor: the echo that continues it */
  earlierId: string | null;
  /** the echo's replies, oldest first, each with its first THREAD_NESTED replies */
  replies: (ThreadItem & { replies: ThreadItem[]; moreReplies: boolean })[];
  pagination: { limit: number; hasMore: boolean; nextCursor: string | null };
};

/** GET /api/echo/{id}/thread's query: the cursor of the replies' next page. */
export const ThreadQuerySchema = v.object({ cursor: PageQuerySchema.entries.cursor });
