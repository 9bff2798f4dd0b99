// Links and mentions in echo text (issue 18): the text is cut into plain runs, web links,
// @mentions and #tags. The result is data, rendered as React text nodes and <a> elements
// (ui/echo-text.tsx): nothing here is ever HTML, so markup in an echo stays text.
import { mentionedName } from "../shared/index";
import { isValidTag, normalizeTag } from "./tags";

export type TextPart =
  | { kind: "text"; text: string }
  | { kind: "url"; text: string; href: string }
  | { kind: "mention"; text: string; userName: string; href: string }
  | { kind: "tag"; text: string; tag: string; href: string };

// Only http(s) links, written out with their scheme: no other scheme can become a link. A URL
// stops at white space, quotes, angle brackets and invisible format/control characters (bidi
// overrides among them), so they can neither hide in nor reorder a link. A mention or tag must
// not follow a letter, digit or one of `_@#&/` (an e-mail address, `&#38;`, a path).
const TOKEN =
  /(https?:\/\/[^\s<>"`\p{Cc}\p{Cf}]+)|(?<![\p{L}\p{N}_@#&/])@([A-Za-z0-9_.-]+)|(?<![\p{L}\p{N}_@#&/])#([\p{L}\p{N}_-]+)/giu;

/** Sentence punctuation after a link is not part of it; a closing bracket only when unbalanced. */
function trimUrl(raw: string): string {
  let url = raw;
  for (;;) {
    const last = url.at(-1) ?? "";
    const open = { ")": "(", "]": "[", "}": "{" }[last];
    if (".,;:!?'*".includes(last)) url = url.slice(0, -1);
    else if (open && url.split(open).length <= url.split(last).length - 1) url = url.slice(0, -1);
    else return url;
  }
}

/** A link's href: the URL parsed (so it is percent-encoded) and only when it has a host. */
function webHref(text: string): string | null {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

function tokenPart(match: RegExpExecArray): TextPart | null {
  const [whole, url, name, tag] = match;
  if (url !== undefined) {
    const text = trimUrl(url);
    const href = webHref(text);
    return href ? { kind: "url", text, href } : null;
  }
  if (name !== undefined) {
    // the user-name rule's own reading (modules/shared/user-names.ts): "@bob." ends a sentence,
    // "@bob..." trails off; only a name sign-up can create is a mention
    const userName = mentionedName(name);
    if (!userName) return null;
    return { kind: "mention", text: `@${userName}`, userName, href: `/user/by-name/${encodeURIComponent(userName)}` };
  }
  const normal = normalizeTag(tag ?? "");
  if (!isValidTag(normal)) return null;
  return { kind: "tag", text: whole, tag: normal, href: `/tag/${encodeURIComponent(normal)}` };
}

/** Cuts echo text into plain runs and links, in order; joined, the parts' texts are the input. */
export function linkify(content: string): TextPart[] {
  const parts: TextPart[] = [];
  let plainFrom = 0;
  const pushText = (end: number) => {
    if (end > plainFrom) parts.push({ kind: "text", text: content.slice(plainFrom, end) });
  };
  for (const match of content.matchAll(TOKEN)) {
    const part = tokenPart(match);
    if (!part) continue;
    pushText(match.index);
    parts.push(part);
    plainFrom = match.index + part.text.length;
  }
  pushText(content.length);
  return parts;
}
