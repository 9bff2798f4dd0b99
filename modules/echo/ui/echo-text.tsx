import { linkify } from "../linkify";

/**
 * Echo text with its web links, @mentions and #tags as links (issue 18); everything else is
 * React text. A web link opens in a new tab (the reader keeps their place in the feed) and is
 * `nofollow ugc` (user content: no ranking credit) and `noopener` (the page cannot reach back).
 * A mention goes to /user/by-name/<name>, which finds the user or says they do not exist.
 * Mentions and tags are plain <a>s: the card around them (EchoCard) makes their clicks
 * client-side navigations (followInAppLink), so a list renders no <Link> per link.
 */
export function EchoText({ content }: { content: string }) {
  return linkify(content).map((part, i) => {
    switch (part.kind) {
      case "text":
        return part.text;
      case "url":
        return (
          <a key={i} href={part.href} rel="nofollow ugc noopener" target="_blank" dir="ltr" className="echo-link">
            {part.text}
          </a>
        );
      case "mention":
        return (
          <a key={i} href={part.href} className="echo-link">
            @<bdi>{part.userName}</bdi>
          </a>
        );
      case "tag":
        return (
          <a key={i} href={part.href} className="echo-link">
            <bdi>{part.text}</bdi>
          </a>
        );
    }
  });
}
