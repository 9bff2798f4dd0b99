import type { ReactNode } from "react";
import { linkify } from "../linkify";

/**
 * Echo text with its web links, @mentions and #tags as links (issue 18); everything else is
 * React text. A web link opens in a new tab (the reader keeps their place in the feed) and is
 * `nofollow ugc` (user content: no ranking credit) and `noopener` (the page cannot reach back).
 * A mention goes to /user/by-name/<name>, which finds the user or says they do not exist.
 * Mentions and tags are plain <a>s: the card around them (EchoCard) makes their clicks
 * client-side navigations (followInAppLink), so a list renders no <Link> per link.
 * `run` renders each piece of text given its offset in the whole (search marks its matches).
 */
export function EchoText({ content, run = (text) => text }: { content: string; run?: (text: string, from: number) => ReactNode }) {
  let from = 0;
  return linkify(content).map((part, i) => {
    const at = from;
    from += part.text.length;
    switch (part.kind) {
      case "text":
        return run(part.text, at);
      case "url":
        return (
          <a key={i} href={part.href} rel="nofollow ugc noopener" target="_blank" dir="ltr" className="echo-link">
            {run(part.text, at)}
          </a>
        );
      case "mention":
        // dir="ltr" isolates the handle: in right-to-left text "@alice" would show as "alice@"
        return (
          <a key={i} href={part.href} className="echo-link" dir="ltr">
            @<bdi>{run(part.userName, at + 1)}</bdi>
          </a>
        );
      case "tag":
        return (
          <a key={i} href={part.href} className="echo-link">
            <bdi>{run(part.text, at)}</bdi>
          </a>
        );
    }
  });
}
