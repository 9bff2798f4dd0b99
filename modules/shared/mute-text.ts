// Muted words (issue 32, docs/decisions/028-muted-words.md): how an echo's words and a muted
// phrase are folded so that one `instr` in SQL matches a phrase on word boundaries, whatever the
// case and the accents.
//
// A word is a run of letters and digits (any script); everything else separates words. Folding
// lowercases and strips diacritics (NFKD, then the combining marks go: "Café" → "cafe",
// "ﬁ" → "fi"). An echo's match text is its words with single spaces, each part (text, content
// warning, tags) fenced by " | " so a phrase never spans two parts:
//   " hot take on rust | spoilers | rust #rust "
// A phrase's pattern is its folded words between spaces (" hot take "): `instr` finds it only as
// whole words. A `#tag` pattern is " #tag ": only an echo tagged so matches, not the word in text;
// a plain word matches the text, the warning and the tags (its "rust" matches a #rust echo).

const NOT_WORD = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}+/gu;

/** The folded words of a text, in order. */
export function foldWords(text: string): string[] {
  return text.normalize("NFKD").replace(MARKS, "").toLowerCase().split(NOT_WORD).filter((w) => w !== "");
}

/** What an echo's muted-word test reads (the `mute_text` column; migration 0027). */
export function echoMuteText(echo: { content: string; tags: readonly string[]; warning?: string | null }): string {
  const tags = echo.tags.flatMap((t) => {
    const words = foldWords(t);
    return words.length === 0 ? [] : [...words, `#${words.join("")}`];
  });
  return ` ${[foldWords(echo.content).join(" "), foldWords(echo.warning ?? "").join(" "), tags.join(" ")].join(" | ")} `.replace(/ {2,}/g, " ");
}

/**
 * A muted phrase's pattern, or null when it has no word at all (only punctuation). "#Café" is the
 * tag pattern " #cafe "; anything else, its words (" hot take ").
 */
export function mutePattern(phrase: string): string | null {
  const trimmed = phrase.trim();
  const words = foldWords(trimmed);
  if (words.length === 0) return null;
  return trimmed.startsWith("#") ? ` #${words.join("")} ` : ` ${words.join(" ")} `;
}

/** The lists a muted word can apply to (issue 32): each list knows its own. */
export const MUTE_CONTEXTS = ["home", "feeds", "tags", "search", "notifications"] as const;
export type MuteContext = (typeof MUTE_CONTEXTS)[number];
export const MUTE_CONTEXT_LABELS: Record<MuteContext, string> = {
  home: "Home and Following",
  feeds: "Feeds and curations",
  tags: "Tag pages",
  search: "Search",
  notifications: "Notifications",
};
/** A word's contexts as the bits of muted_words.contexts. */
export const MUTE_CONTEXT_BITS: Record<MuteContext, number> = { home: 1, feeds: 2, tags: 4, search: 8, notifications: 16 };
/** One account's muted words, and a phrase's length (characters as typed). */
export const MAX_MUTED_WORDS = 100;
export const MAX_MUTED_WORD = 50;
