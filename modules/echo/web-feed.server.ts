// Web feeds of a public stream (a scroll, a tag, a user): Atom 1.0 and RSS 2.0 written by the
// `feed` library, JSON Feed 1.1 as plain JSON (the library only writes JSON Feed 1.0). Echo text
// is plain text: it is HTML-escaped before it goes into any html-typed field, so a feed reader
// shows `<script>` as text and never runs or renders markup from an echo.
import { Feed } from "feed";
import { badRequest, ECHO_ROWS, ILL_FORMED_MESSAGE, isWellFormedText, largestPage, notFound } from "../shared/index";
import { appContext, toErrorResponse, type AppContext, type RouteArgs } from "../shared/index.server";
import { listEchos } from "./lists.server";
import { MAX_TAG_LENGTH, normalizeTag, type Echo } from "./schema";
import { WEB_FEED_FORMATS, type WebFeedFormat } from "./web-feed-links";

/**
 * Who reads a web feed: nobody (a feed URL carries no session). A well-formed id no account
 * has (ids begin with their creation time), as the feed engine takes only ids into its SQL:
 * nothing is liked by it, so a hide-liked rule hides nothing.
 */
export const FEED_READER_ID = "0".repeat(26);

/**
 * The newest entries a web feed carries: read as nobody (no like or repost found), an entry reads
 * its list's row, the echo, its author and a quote's quoted echo: 4 rows, so 44 (50 read 208 rows
 * for a curation of quotes; decision 027, "Pages sized by rows per echo").
 */
export const WEB_FEED_ENTRIES = largestPage(ECHO_ROWS - 1);

export type WebFeed = {
  title: string;
  description: string;
  /** the stream's page path (`/scroll/…`) */
  pagePath: string;
  /** where its feeds live: `<feedBase>/feed.<ext>` (the page path, but a user's is by name) */
  feedBase: string;
  entries: Echo[];
  /** when the feed changed, if it has no entries (otherwise its newest entry's time) */
  emptyUpdated: string;
};

/**
 * Characters XML 1.0 cannot carry at all (not even escaped): the controls echo text already
 * refuses (kept here for any older row) and the noncharacters U+FFFE/U+FFFF, which it accepts.
 * Dropped from Atom and RSS; JSON Feed keeps the text as it is.
 */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xmlText = (text: string) => text.replace(NOT_XML, "");

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * An entry's title: the echo's first line, cut at 80 characters (whole code points); an echo with
 * a content warning is titled by its warning, so a reader's list never shows the text (decision 025).
 */
function entryTitle(echo: Echo): string {
  if (echo.warning) return `CW: ${echo.warning}`;
  const firstLine = echo.content.split("\n", 1)[0]!.trim();
  const chars = [...firstLine];
  return chars.length > 80 ? `${chars.slice(0, 79).join("")}…` : firstLine || `Echo by @${echo.author.userName}`;
}

/** The format a feed URL asks for (`…/feed.atom`), or 404. */
export function webFeedFormat(request: Request): WebFeedFormat {
  const ext = new URL(request.url).pathname.split(".").pop();
  const format = WEB_FEED_FORMATS.find((f) => f.ext === ext);
  if (!format) throw notFound("No such feed");
  return format.ext;
}

function newestTime(feed: WebFeed): Date {
  const times = feed.entries.map((e) => Date.parse(e.createdAt));
  return new Date(times.length ? Math.max(...times) : Date.parse(feed.emptyUpdated));
}

function xmlFeed(feed: WebFeed, origin: string, format: "atom" | "rss"): string {
  const link = origin + feed.pagePath;
  const out = new Feed({
    title: xmlText(feed.title),
    description: xmlText(feed.description),
    id: link,
    link,
    language: "en",
    // from the data, not the clock: the same entries give the same bytes (and ETag)
    updated: newestTime(feed),
    generator: "Echo",
    feedLinks: { atom: `${origin}${feed.feedBase}/feed.atom`, rss: `${origin}${feed.feedBase}/feed.rss`, json: `${origin}${feed.feedBase}/feed.json` },
  });
  for (const echo of feed.entries) {
    const url = `${origin}/echo/${echo._id}`;
    out.addItem({
      title: escapeHtml(xmlText(entryTitle(echo))),
      id: url,
      link: url,
      // an edit updates an Atom entry (<updated>), so readers fetch it again; RSS's pubDate stays the post's
      date: new Date(format === "atom" ? (echo.editedAt ?? echo.createdAt) : echo.createdAt),
      published: new Date(echo.createdAt),
      // a warned echo: the warning is the summary (Atom <summary>, RSS <description>), the text only in the content, after it
      ...(echo.warning && { description: escapeHtml(xmlText(echo.warning)) }),
      content: contentHtml(echo, (text) => escapeHtml(xmlText(text))),
      author: [{ name: echo.author.userName, link: `${origin}/user/${echo.author._id}` }],
      category: echo.tags.map((t) => ({ name: t.name, term: t.name })),
    });
  }
  return format === "atom" ? out.atom1() : out.rss2();
}

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1): JSON.stringify escapes what JSON needs. */
function jsonFeed(feed: WebFeed, origin: string): string {
  const link = origin + feed.pagePath;
  return JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: feed.title,
    description: feed.description,
    home_page_url: link,
    feed_url: `${origin}${feed.feedBase}/feed.json`,
    language: "en",
    items: feed.entries.map((echo) => ({
      id: echo._id,
      url: `${origin}/echo/${echo._id}`,
      title: entryTitle(echo),
      ...(echo.warning && { summary: echo.warning }),
      content_text: echo.warning ? `Content warning: ${echo.warning}\n\n${echo.content}` : echo.content,
      content_html: contentHtml(echo, escapeHtml),
      date_published: echo.createdAt,
      ...(echo.editedAt && { date_modified: echo.editedAt }),
      authors: [{ name: echo.author.userName, url: `${origin}/user/${echo.author._id}` }],
      tags: echo.tags.map((t) => t.name),
    })),
  });
}

/** An entry's HTML: the text, after its content warning when it has one. */
function contentHtml(echo: Echo, escape: (text: string) => string): string {
  const text = escape(echo.content).replace(/\n/g, "<br>");
  return echo.warning ? `<p><strong>Content warning: ${escape(echo.warning)}</strong></p><p>${text}</p>` : text;
}

async function etagOf(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)));
  return `"${[...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

/** If-None-Match names this ETag (or `*`): weak comparison, as RFC 9110 asks for GET. */
function notModified(request: Request, etag: string): boolean {
  const header = request.headers.get("If-None-Match");
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

/**
 * The feed as an answer: its content type, a content-hash ETag, and 304 when the reader already
 * has these bytes. Readers revalidate every time (`no-cache`): a scroll made private stops
 * being served at once instead of living on in caches.
 */
export async function webFeedResponse(request: Request, feed: WebFeed, format: WebFeedFormat): Promise<Response> {
  const origin = new URL(request.url).origin;
  const body = format === "json" ? jsonFeed(feed, origin) : xmlFeed(feed, origin, format);
  const etag = await etagOf(body);
  const type = WEB_FEED_FORMATS.find((f) => f.ext === format)!.type;
  const headers = { ETag: etag, "Cache-Control": "public, no-cache", Vary: "Accept-Encoding" };
  if (notModified(request, etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": `${type}; charset=utf-8` } });
}

/**
 * A feed URL's loader: `load` finds the stream (a `notFound` for an unknown or private one) and
 * its entries; errors answer in the API's `{ error, message }` shape with their status.
 */
export function webFeedRoute<A extends RouteArgs>(load: (args: A & { app: AppContext }) => Promise<WebFeed>) {
  return async (args: A): Promise<Response> => {
    try {
      const format = webFeedFormat(args.request);
      const feed = await load({ ...args, app: args.context.get(appContext) });
      return await webFeedResponse(args.request, feed, format);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

/** A tag's feed: its newest echos; a tag no echo carries is 404. */
export async function tagWebFeed(app: AppContext, rawName: string): Promise<WebFeed> {
  if (!isWellFormedText(rawName)) throw badRequest(`tag ${ILL_FORMED_MESSAGE}`);
  const tag = normalizeTag(rawName).slice(0, MAX_TAG_LENGTH);
  if (!tag) throw notFound("Tag not found");
  const page = await listEchos(app, FEED_READER_ID, { tag }, { page: 1, limit: WEB_FEED_ENTRIES });
  if (page.echos.length === 0) throw notFound("Tag not found");
  return {
    title: `#${tag} · Echo`,
    description: `The newest echos tagged #${tag}`,
    pagePath: `/tag/${encodeURIComponent(tag)}`,
    feedBase: `/tag/${encodeURIComponent(tag)}`,
    entries: page.echos,
    emptyUpdated: new Date(0).toISOString(),
  };
}
