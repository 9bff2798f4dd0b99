// Plain text helpers (no valibot); the valibot rules built on them are validation.ts. Counting
// characters is char-count.ts, apart: it is the only one of them home's first load needs.
import { charCount, graphemes } from "./char-count";

/*
 * Text rules, shared by every schema, the API's doors (JSON bodies, query strings, forms) and the
 * client's counters. See docs/product-notes.md "Text".
 *
 * Ill-formed text is refused, never repaired: an unpaired UTF-16 surrogate (what a JSON `\ud800`
 * escape parses to; stored, it reads back as "�"), and control characters, which have no meaning in
 * user text and can hide or corrupt what others see: C0 (U+0000–U+001F) except tab, line feed and
 * carriage return, DEL (U+007F) and C1 (U+0080–U+009F). Bidi controls (U+202A–U+202E,
 * U+2066–U+2069) are legitimate in right-to-left writing, so they are accepted and contained where
 * user text is shown (rendered isolated), not refused.
 */
const ILL_FORMED = /\p{Cs}|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;

export const ILL_FORMED_MESSAGE = "must not contain unpaired surrogates or control characters";

export function isWellFormedText(text: string): boolean {
  return !ILL_FORMED.test(text);
}

/**
 * Storage bound beside the character limit: a cluster can be arbitrarily long (a letter under a
 * pile of combining marks is one character), so text may use at most this many UTF-16 units per
 * allowed character. The longest real emoji (a tagged flag) take 14.
 */
export const UNITS_PER_CHAR = 16;

/**
 * The first ill-formed string anywhere in a parsed JSON value (keys included), as the field path
 * the API's messages use ("feedConfig.includedTags"), or null when all text is well-formed.
 * Walked with an explicit stack, not recursion: a body nested thousands deep (JSON.parse takes
 * it) must not overflow the call stack (a 500 the fuzzer found).
 */
export function illFormedField(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === "string") {
      if (!isWellFormedText(item)) return path || "Request body";
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], path]);
    } else if (typeof item === "object" && item !== null) {
      const entries = Object.entries(item);
      for (const [key] of entries) if (!isWellFormedText(key)) return path ? `${path} (a key)` : "Request body (a key)";
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], path ? `${path}.${entries[i]![0]}` : entries[i]![0]]);
    }
  }
  return null;
}

/** The first `max` characters of a text (as `charCount` counts): what a form field keeps as typed. */
export function clampChars(text: string, max: number): string {
  if (text.length <= max || charCount(text) <= max) return text;
  let out = "";
  let n = 0;
  for (const { segment } of graphemes(text)) {
    if (n++ === max) break;
    out += segment;
  }
  return out;
}

/**
 * User text inside a plain string (a document title, a confirm dialog), where no element can
 * isolate it: wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, so bidi controls or
 * right-to-left letters in it cannot reorder the text around it. Elements use <bdi> / dir="auto".
 */
export const isolate = (userText: string): string => `\u2068${userText}\u2069`;
