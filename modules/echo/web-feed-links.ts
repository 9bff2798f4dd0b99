// Web feed addresses (Atom, RSS, JSON Feed) of a public stream, for the page head's
// `<link rel="alternate">` (docs/product-notes.md "Web feeds"). Client-safe: page `meta` uses it.

export const WEB_FEED_FORMATS = [
  { ext: "atom", type: "application/atom+xml", label: "Atom" },
  { ext: "rss", type: "application/rss+xml", label: "RSS" },
  { ext: "json", type: "application/feed+json", label: "JSON Feed" },
] as const;

export type WebFeedFormat = (typeof WEB_FEED_FORMATS)[number]["ext"];

/** `base` is the stream's page path (`/tag/news`); the feeds live at `<base>/feed.<ext>`. */
export function webFeedAlternates(base: string, title: string) {
  return WEB_FEED_FORMATS.map((f) => ({
    tagName: "link" as const,
    rel: "alternate",
    type: f.type,
    title: `${title} (${f.label})`,
    href: `${base}/feed.${f.ext}`,
  }));
}
