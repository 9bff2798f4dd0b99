// Tag rules on their own, without the schemas (and valibot's work when they load): echo text
// (linkify.ts) uses them on every card, so home's first load pays only for these lines (the
// message a bad tag gets is schema.ts's: forms and schemas say it, cards do not).
import { charCount } from "../shared/index";

export const MAX_TAG_LENGTH = 30;
/** Letters (any script), digits, '_' and '-': safe in URLs, HTML and SQL alike. */
export const TAG_PATTERN = /^[\p{L}\p{N}_-]+$/u;

/** Spec §5 normalisation: trimmed, lower-cased, leading '#' removed. */
export function normalizeTag(raw: string): string {
  return raw.trim().replace(/^#+/, "").trim().toLowerCase();
}

export function isValidTag(tag: string): boolean {
  return tag.length > 0 && TAG_PATTERN.test(tag) && charCount(tag) <= MAX_TAG_LENGTH;
}
